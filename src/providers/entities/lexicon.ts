// Word lists for entity extraction. Kept small and explicit: each entry exists because
// neither NLP library gets that case right on its own.

/** Never an entity on their own, and trimmed from the edges of a span. */
export const STOPWORDS = new Set([
  'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'you', 'your', 'yours', 'he', 'him', 'his',
  'she', 'her', 'hers', 'they', 'them', 'their', 'theirs', 'it', 'its', 'this', 'that', 'these', 'those',
  'who', 'whom', 'whose', 'which', 'what', 'someone', 'somebody', 'everyone', 'anyone', 'nobody',
  'the', 'a', 'an', 'and', 'or', 'but', 'nor', 'of', 'in', 'on', 'at', 'to', 'for', 'from', 'with', 'by',
  'hi', 'hello', 'hey', 'thanks', 'thank', 'yes', 'no', 'ok', 'okay', 'please', 'dear', 'regards',
]);

/** Job titles and generic acronyms that taggers mark as proper nouns ("the CEO"). */
export const ROLE_WORDS = new Set([
  'ceo', 'cto', 'cfo', 'coo', 'cio', 'ciso', 'cmo', 'cpo', 'vp', 'svp', 'evp', 'md', 'hr', 'pm', 'qa',
  'am', 'eta', 'fyi', 'asap', 'tbd', 'n/a', 'api', 'url', 'pdf', 'faq', 'id', 'ui', 'ux',
]);

/** Stripped from the front of a name when normalising ("Dr. Ada Lovelace" → "ada lovelace"). */
export const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'professor', 'sir', 'dame', 'madam', 'madame', 'lord',
  'lady', 'rev', 'reverend', 'fr', 'father', 'sister', 'brother', 'mister', 'mme', 'mlle', 'herr', 'frau',
]);

/** Trimmed from the front of a date span ("on 5 June" → "5 June"). */
export const DATE_LEAD = new Set(['on', 'in', 'at', 'by', 'since', 'from', 'until', 'till', 'during', 'of', 'the', 'around', 'before', 'after', 'circa']);

export const MONTHS = /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?)\b/i;
/** A year (1600–2099, "1990s" too) or a day and month in figures ("5/6", "05.06.2024"). */
export const YEAR_OR_NUMERIC_DATE = /(?<!\d)(?:(?:1[6-9]|20)\d\d|\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?)(?!\d)/;
export const WEEKDAY_OR_MONTH = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

/**
 * Products named as written. Case-sensitive: "Slack", "Chrome", "Go" are products, "slack",
 * "chrome", "go" are words. A camel-case or versioned name is recognised without a list.
 */
export const PRODUCTS = new Set([
  // software, data stores, languages, platforms
  'MySQL', 'PostgreSQL', 'Postgres', 'SQLite', 'MongoDB', 'Redis', 'Kafka', 'RabbitMQ', 'Elasticsearch',
  'Cassandra', 'DynamoDB', 'Snowflake', 'BigQuery', 'Docker', 'Kubernetes', 'Terraform', 'Ansible', 'Jenkins',
  'Nginx', 'Apache Kafka', 'Linux', 'Ubuntu', 'Debian', 'Windows', 'macOS', 'iOS', 'Android', 'ChromeOS',
  'Python', 'JavaScript', 'TypeScript', 'Rust', 'Java', 'Kotlin', 'Swift', 'Golang', 'Ruby', 'PHP', 'Scala',
  'Haskell', 'Elixir', 'React', 'Vue', 'Angular', 'Svelte', 'Django', 'Flask', 'Rails', 'Node.js', 'Deno',
  'PyTorch', 'TensorFlow', 'NumPy', 'Pandas', 'Jupyter', 'VS Code', 'Vim', 'Emacs', 'IntelliJ', 'Xcode',
  'Git', 'GitHub', 'GitLab', 'Bitbucket', 'Jira', 'Confluence', 'Trello', 'Asana', 'Notion', 'Slack', 'Zoom',
  'Teams', 'Figma', 'Sketch', 'Photoshop', 'Excel', 'Word', 'PowerPoint', 'Outlook', 'Gmail', 'Chrome',
  'Firefox', 'Safari', 'Edge', 'ChatGPT', 'Claude', 'Gemini', 'Copilot', 'Salesforce', 'Shopify', 'Stripe',
  'Spotify', 'Netflix', 'WhatsApp', 'Telegram', 'Signal', 'Instagram', 'TikTok', 'Dropbox', 'Airtable',
  // devices
  'iPhone', 'iPad', 'iMac', 'MacBook', 'MacBook Air', 'MacBook Pro', 'Apple Watch', 'AirPods', 'Pixel',
  'Galaxy', 'Kindle', 'PlayStation', 'Xbox', 'Nintendo Switch', 'ThinkPad', 'Surface', 'Raspberry Pi', 'Tesla Model',
]);

/** Words that extend a product name when they follow it ("iPhone 15 Pro Max"). */
export const PRODUCT_SUFFIX = /^(pro|max|plus|ultra|mini|air|se|lite|xl|turbo|studio)$/i;
