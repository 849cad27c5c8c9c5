-- A short memory of several sentences also gets one search unit per sentence (src/core/passages):
-- a 512-d sentence encoder blurs a chat turn of several sentences, and a question asks about one.
ALTER TABLE memory_passages DROP CONSTRAINT memory_passages_kind_check;
ALTER TABLE memory_passages ADD CONSTRAINT memory_passages_kind_check CHECK (kind IN ('passage', 'context', 'sentence'));
