// Sentinel: a deterministic scan of a skill's text for what must never reach an agent's
// harness unreviewed — secrets, personal data, prompt-injection phrasing and destructive
// commands. Any finding makes the scan unclean (`flagged`); an unclean skill never activates
// on its own. Regexes only: no model, no network, bounded work per skill.

export type FindingCategory = 'secret' | 'pii' | 'prompt_injection' | 'destructive_command';

export interface ScanFinding {
  code: string;
  category: FindingCategory;
  severity: 'critical';
  message: string;
  /** Field and character span, e.g. "content[120:160]". */
  locator: string;
}

export interface ScanResult {
  state: 'clean' | 'flagged';
  scanned_at: string;
  critical: number;
  findings: ScanFinding[];
}

interface Rule {
  code: string;
  category: FindingCategory;
  what: string;
  re: RegExp;
  /** Further check of a match (e.g. a card number's checksum); false drops it. */
  accept?: (m: string) => boolean;
}

const RULES: Rule[] = [
  // Secrets: credentials in well-known formats, private keys, and key=value assignments of long tokens.
  { code: 'SECRET_PRIVATE_KEY', category: 'secret', what: 'a private key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { code: 'SECRET_AWS_KEY', category: 'secret', what: 'an AWS access key id', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { code: 'SECRET_GITHUB_TOKEN', category: 'secret', what: 'a GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b/ },
  { code: 'SECRET_SLACK_TOKEN', category: 'secret', what: 'a Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/ },
  { code: 'SECRET_API_KEY', category: 'secret', what: 'an API key', re: /\b(?:sk|rk)-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}\b|\b(?:sk|rk|pk)_live_[A-Za-z0-9]{16,}\b|\bAIza[0-9A-Za-z_-]{35}\b|\bloci_[A-Za-z0-9_-]{20,}\b/ },
  { code: 'SECRET_JWT', category: 'secret', what: 'a JSON web token', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { code: 'SECRET_BEARER', category: 'secret', what: 'a bearer token', re: /\bBearer\s+[A-Za-z0-9._~+/-]{24,}=*/ },
  { code: 'SECRET_URL_PASSWORD', category: 'secret', what: 'a password inside a URL', re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@/]{3,}@[^\s]+/i,
    accept: (m) => !/:\/\/[^:]+:(?:<[^>]*>|\$\{?[A-Z_]+\}?|\*+|password|pass|secret|x+)@/i.test(m) },
  { code: 'SECRET_ASSIGNMENT', category: 'secret', what: 'a credential assignment',
    re: /\b(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|client[_-]?secret|password|passwd)\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+_.!@#$%^&*-]{12,})/i,
    accept: (m) => !/[:=]\s*["']?(?:\$\{?[A-Z_][A-Z0-9_]*\}?|<[^>]+>|x{6,}|\*{6,}|changeme|your[_-])/i.test(m) },
  // Personal data.
  { code: 'PII_EMAIL', category: 'pii', what: 'an email address', re: /(?<![\w.%+:/-])[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/, // not the user:password@ of a URL
    accept: (m) => !/@(?:[a-z0-9-]+\.)*(?:example\.(?:com|org|net)|localhost|invalid|test)$/i.test(m) },
  { code: 'PII_PHONE', category: 'pii', what: 'a phone number',
    re: /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?|\b\d{3}[\s.-])\d{3}[\s.-]\d{4}\b|\+\d{1,3}[\s.-]?\d{2,4}(?:[\s.-]\d{2,4}){2,3}\b/,
    accept: (m) => { const d = m.replace(/\D/g, ''); return d.length >= 10 && d.length <= 15; } },
  { code: 'PII_CARD_NUMBER', category: 'pii', what: 'a payment card number', re: /\b(?:\d[ -]?){12,18}\d\b/, accept: luhn },
  { code: 'PII_US_SSN', category: 'pii', what: 'a social security number', re: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/ },
  // Prompt injection: phrasing that tries to take over the model that reads the skill.
  { code: 'INJECTION_OVERRIDE', category: 'prompt_injection', what: 'an instruction override',
    re: /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|system|original)\s+(?:instructions?|prompts?|rules|context|directions|guidelines)/i },
  { code: 'INJECTION_ROLE', category: 'prompt_injection', what: 'a role takeover',
    re: /\byou\s+are\s+now\s+(?:an?\s+)?(?:new|different|unrestricted|jailbroken|evil)\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken)\b|\b(?:DAN|developer)\s+mode\b|\bjailbreak\b/i },
  { code: 'INJECTION_SYSTEM_TAG', category: 'prompt_injection', what: 'a forged system message',
    re: /<\|im_start\|>\s*system|\[\/?(?:INST|SYS)\]|<\/?system>|^\s*(?:system|assistant)\s*:\s*(?:you|ignore|disregard|from now on)/im },
  { code: 'INJECTION_EXFILTRATION', category: 'prompt_injection', what: 'a request to leak instructions or secrets',
    re: /\b(?:reveal|print|output|repeat|show|leak|send)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|instructions\s+verbatim|api\s+keys?|credentials|environment\s+variables)/i },
  { code: 'INJECTION_CONCEAL', category: 'prompt_injection', what: 'an instruction to hide actions from the user',
    re: /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|let)\s+the\s+user\b/i },
  // Destructive commands.
  { code: 'DESTRUCTIVE_RM_ROOT', category: 'destructive_command', what: 'a recursive delete of a root, home or wildcard path',
    re: /\brm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*\s+|-[a-zA-Z]*f[a-zA-Z]*\s+|--recursive\s+|--force\s+|--no-preserve-root\s+)+(?:\/\*?|~\/?|\$HOME\/?|\*|\/(?:etc|usr|var|home|bin|boot|lib|opt|root)\/?)(?=\s|$|["';|&])/ },
  { code: 'DESTRUCTIVE_SQL', category: 'destructive_command', what: 'a destructive SQL statement',
    re: /\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA)|TRUNCATE\s+(?:TABLE\s+)?[A-Za-z_"]|DELETE\s+FROM\s+[A-Za-z_."]+\s*(?:;|$))/im },
  { code: 'DESTRUCTIVE_FORCE_PUSH', category: 'destructive_command', what: 'a force push',
    re: /\bgit\s+push\b[^\n]*?(?:\s--force(?!-with-lease)\b|\s-f\b|\s\+[A-Za-z0-9_./-]+)/ },
  { code: 'DESTRUCTIVE_DISK', category: 'destructive_command', what: 'a command that wipes a disk or filesystem',
    re: /\bmkfs(?:\.[a-z0-9]+)?\s+\/dev\/|\bdd\s+[^\n]*\bof=\/dev\/(?:sd|nvme|hd|xvd|disk)|>\s*\/dev\/sd[a-z]\b|\bshred\s+[^\n]*\/dev\// },
  { code: 'DESTRUCTIVE_FORK_BOMB', category: 'destructive_command', what: 'a fork bomb', re: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/ },
  { code: 'DESTRUCTIVE_PIPE_SHELL', category: 'destructive_command', what: 'a download piped into a shell',
    re: /\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b/ },
  { code: 'DESTRUCTIVE_CHMOD_ROOT', category: 'destructive_command', what: 'a recursive permission change of the root', re: /\bchmod\s+-R\s+[0-7]*7[0-7]*\s+\/(?=\s|$)|\bchown\s+-R\s+\S+\s+\/(?=\s|$)/ },
];

function luhn(m: string): boolean {
  const d = m.replace(/\D/g, '');
  if (d.length < 13 || d.length > 19 || /^(\d)\1+$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/** Fields of a skill that are scanned, with the text of each. */
export function scannedText(data: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const key of ['name', 'description', 'summary', 'content', 'domain']) {
    const v = data[key];
    if (typeof v === 'string' && v) out.push([key, v]);
  }
  if (Array.isArray(data.tags)) out.push(['tags', data.tags.filter((t) => typeof t === 'string').join(' ')]);
  if (typeof data.evidence === 'string' && data.evidence) out.push(['evidence', data.evidence]);
  return out;
}

/** At most this many findings are kept per scan (the count covers all). */
export const MAX_FINDINGS = 50;

export function scanSkill(data: Record<string, unknown>, now: Date = new Date()): ScanResult {
  const findings: ScanFinding[] = [];
  let critical = 0;
  for (const [field, text] of scannedText(data)) {
    for (const rule of RULES) {
      const re = new RegExp(rule.re.source, rule.re.flags.includes('g') ? rule.re.flags : rule.re.flags + 'g');
      for (const m of text.matchAll(re)) {
        if (rule.accept && !rule.accept(m[0])) continue;
        critical++;
        if (findings.length < MAX_FINDINGS) {
          const at = m.index ?? 0;
          findings.push({
            code: rule.code, category: rule.category, severity: 'critical',
            message: `${rule.what} in ${field}`,
            locator: `${field}[${at}:${at + m[0].length}]`,
          });
        }
        break; // one finding per rule and field is enough to review it
      }
    }
  }
  return { state: critical ? 'flagged' : 'clean', scanned_at: now.toISOString(), critical, findings };
}

/** Whether a stored scan result lets a skill activate. */
export const isClean = (scan: unknown): boolean =>
  typeof scan === 'object' && scan !== null && (scan as ScanResult).state === 'clean' && (scan as ScanResult).critical === 0;
