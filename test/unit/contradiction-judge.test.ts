// The learned contradiction judge on memories phrased as people write them: each kind of update
// the detector must find, and each kind of look-alike it must leave alone. The pair context is
// what the service computes (USE-Lite cosine from the real model, the rule verdict).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UseLiteEmbedder } from '../../src/providers/embedder/use-lite.js';
import { analyzeMemory, defaultModel, judgeLearned, type LearnedJudgement } from '../../src/core/contradictions/classifier.js';
import { alignedPairs, FEATURES, pairViews, reconcile, sentencePairFeatures, sentencesOf, tokenizeSentence } from '../../src/core/contradictions/pair-features.js';
import { extractTriples } from '../../src/core/contradictions/triples.js';
import { judgePair } from '../../src/core/contradictions/detect.js';
import { wilson } from '../../src/core/contradictions/score.js';

type V = 'rdf_conflict' | 'semantic_conflict' | 'none';

const UPDATES: Array<[string, string, V, string]> = [
  ['Alice owns the billing service.', 'Bob took over the billing service last week.', 'rdf_conflict', 'ownership moved'],
  ['Our CTO is Priya Raman.', 'Daniel Kim is now the CTO.', 'rdf_conflict', 'role holder replaced'],
  ['We use Jenkins for CI.', 'We switched CI to GitHub Actions.', 'rdf_conflict', 'tool replaced'],
  ['The Pro plan costs $20 per month.', 'The Pro plan now costs $25 per month.', 'rdf_conflict', 'price revised'],
  ['The upload limit is 10 MB.', 'The upload limit is now 25 MB.', 'rdf_conflict', 'limit revised'],
  ['Standup is at 9:30.', 'From Monday standup moves to 10:00.', 'rdf_conflict', 'time revised with "from Monday"'],
  ['Enterprise tier: $99 per seat.', 'Enterprise tier: $119 per seat.', 'rdf_conflict', 'terse key: value'],
  ['Tom lives in Porto.', 'Met Tom today; he told me he moved to Lisbon.', 'rdf_conflict', 'pronoun subject'],
  ['Carlos works at Oracle.', 'Carlos no longer works at Oracle.', 'rdf_conflict', '"no longer"'],
  [
    'Notes from the planning call. The release train is on Thursdays. Grace runs the retro. Deploys need two approvals.',
    'Quick update after the reorg: Hassan runs the retro now.',
    'rdf_conflict', 'one sentence inside a longer memory',
  ],
  ['Dave is allergic to peanuts.', 'Dave is not allergic to peanuts.', 'semantic_conflict', 'a claim and its denial'],
  ['My sister Emma lives in Portland with her two cats.', 'Emma moved to Denver in March for her new job.', 'rdf_conflict', 'a relation naming the person ("my sister Emma")'],
  ['My rent is $1,850 a month.', "The landlord raised my rent, I'm paying $2,100 now.", 'rdf_conflict', 'the subject acted on by another'],
  ['Finance set the conference budget at $12,000.', 'Finance cut the conference budget to $8,000.', 'rdf_conflict', '"cut … to"'],
  ["I've been driving a 2014 Honda Civic for years.", 'I finally sold the Civic last weekend and bought a used Toyota RAV4.', 'rdf_conflict', 'when it changed is no other occasion'],
  ["User's phone: Pixel 6.", 'User phone: iPhone 15 Pro (replaced the Pixel in October).', 'rdf_conflict', 'figures of two names'],
  ['The deploy pipeline runs on Jenkins.', 'We retired Jenkins; all deploys now go through GitHub Actions.', 'rdf_conflict', 'two clauses joined by a semicolon'],
  ['My manager is Priya Raman.', 'After the reorg I report to Daniel Okafor instead of Priya.', 'rdf_conflict', 'whom I report to'],
  ['The main repo is hosted on Bitbucket.', 'We moved the main repository to GitLab.', 'rdf_conflict', 'a value the older note stated, replaced'],
  ['fyi my work laptop is a Dell XPS 13', 'btw IT swapped my Dell for a Lenovo T14 this week', 'rdf_conflict', 'chat fillers before the subject'],
  ['Billing address for Contoso: 12 Harbor Rd, Seattle.', 'Contoso updated their billing address to 400 Pine St, Seattle.', 'rdf_conflict', '"updated … to"'],
  ['We host the docs on Read the Docs.', 'Docs moved off Read the Docs to our own site on Cloudflare Pages.', 'rdf_conflict', '"moved off X to Y"'],
  ['Ellie plays the violin in the school orchestra.', 'Ellie quit violin and switched to cello this term.', 'rdf_conflict', '"quit X and switched to Y"'],
  ["Mark's team owns the payments API.", 'Payments API ownership went to the platform team in the reorg.', 'rdf_conflict', '"ownership went to"'],
  ['Maya works remotely from Lisbon.', 'Maya is back in the office full-time since March.', 'rdf_conflict', 'a state replaced (remote / in the office)'],
  ['Our weekly design review is in person.', 'The weekly design review is virtual now.', 'rdf_conflict', 'a state replaced (in person / virtual)'],
  ['Leo is a junior developer on the payments team.', "Leo got promoted, he's a senior developer now.", 'rdf_conflict', 'a state replaced (junior / senior)'],
  ['API clients may send 100 requests per minute.', 'Rate limit for API clients is 300/min as of this release.', 'rdf_conflict', 'a rate written two ways ("per minute" / "/min")'],
  ['The staging database has 200 GB of storage.', 'We bumped staging DB storage to 500 GB.', 'rdf_conflict', 'what a figure counts, named before it'],
  ['Minimum order quantity: 500 units', 'MOQ is 250 units as of this month.', 'rdf_conflict', 'an acronym of the subject'],
  ['Sprint planning happens every other Monday at 11.', 'Sprint planning is now every other Tuesday at 11.', 'rdf_conflict', '"every other" is no addition'],
  ['Home internet is with Comcast.', "Cancelled Comcast; we're on Verizon Fios now.", 'rdf_conflict', 'the old value cancelled, the new one named'],
  ['Default branch: master', 'default branch renamed to main', 'rdf_conflict', 'a one-line note, renamed'],
  ['The office closes at 6pm on Fridays.', 'Starting this month the office closes at 4pm on Fridays.', 'rdf_conflict', 'a time phrase before the subject'],
  ['The quarterly review is scheduled for June 18.', 'Quarterly review has been rescheduled to June 25.', 'rdf_conflict', 'a date moved ("rescheduled to")'],
  ['Annual license renewal quote: $18,400.', 'Vendor came back with a revised quote of $16,900 for the annual license.', 'rdf_conflict', '"revised"'],
  ['The escalation contact for outages is Bob.', 'Outage escalations should go to Alice from now on, not Bob.', 'rdf_conflict', '"…, not Bob" is "instead of Bob"'],
  ["Lisa's email is lisa@old-domain.com.", 'Lisa has a new email: lisa@newco.io.', 'rdf_conflict', 'a new email'],
  ['The staging environment runs on a single t3.medium.', 'Staging was upsized to two t3.large instances.', 'rdf_conflict', '"upsized to"'],
  ['We pay $49/month for the Figma seat.', "Figma went up, it's $59 a month now.", 'rdf_conflict', 'one price each, named two ways ("went up")'],
  ['The on-site workshop starts Dec 15.', 'The on-site workshop starts Dec 20 this year, per Lee.', 'rdf_conflict', 'who said it ("per Lee") is not what changed'],
  ['Retro happens Thursday at 4.', 'As of this sprint, the retro is on Fridays at 11am.', 'rdf_conflict', 'a bare hour after "at"'],
  ['Nightly exports run at 01:00 UTC.', 'The nightly export window shifted to 03:30 UTC.', 'rdf_conflict', '"shifted to"'],
  ['Elena reports to Marcus.', 'After the reorg Elena reports to Yusuf.', 'rdf_conflict', '"after the reorg"'],
  ['Merges to main need one review.', 'Merges to main need two reviews starting today.', 'rdf_conflict', '"one" counts what follows it'],
  ['The desktop client is on version 2.7.0.', 'Desktop client 2.9.1 shipped today.', 'rdf_conflict', 'a version released on a day'],
  ['Sync notes 6/11: contract signed, two new hires, go-live set for May 12.', 'Go-live slipped to June 2 because the vendor API was late.', 'rdf_conflict', 'one item of a dated lead-in list, a reason given'],
  ['The on-call rota is run by the SRE team.', 'Platform engineering took the on-call rota over from the SRE team.', 'rdf_conflict', '"took … over from"'],
  ["Mum takes 5 mg of the thyroid medication every morning.", "The GP raised mum's thyroid dose to 10 mg.", 'rdf_conflict', 'a dose, named two ways'],
  ['Note to self: the property manager is Ms. Grant, rent goes to her Wells Fargo account on the 3rd.', 'The flat was sold, so rent now goes to Lakeside Lettings instead of Ms. Grant.', 'rdf_conflict', 'two clauses after a lead-in stay one sentence'],
  ['Maya is in 2nd grade at Oak Hill.', 'Maya started 3rd grade at Oak Hill this fall.', 'rdf_conflict', '"this fall" is the present'],
  ['I drink my coffee with milk.', 'I switched to oat milk in my coffee.', 'rdf_conflict', 'a short first-person note, said to have changed'],
  ['The monthly all-hands is on the last Friday of the month.', 'The all-hands is moving to the first Monday of each month.', 'rdf_conflict', '"the last Friday of the month" is no past day'],
  ['Our monthly cloud bill is about $8k.', 'Cloud spend dropped to $5k a month after the cleanup.', 'rdf_conflict', 'a figure of one subject named in other words'],
  ["The kids' school starts at 8:15.", 'School start time changed to 8:45 this year.', 'rdf_conflict', 'a time of one subject named in other words'],
  ['The Datadog invoice is about $3k a month.', 'Since we trimmed the custom metrics, Datadog is down to $1.8k a month.', 'rdf_conflict', 'a leading clause before the subject'],
  ['Omar works at Shopify.', 'Omar left Shopify in the spring.', 'rdf_conflict', 'a stop of what the older states'],
  ['I take sugar in my tea.', 'I stopped taking sugar in my tea.', 'rdf_conflict', 'a stop, the object named again'],
  ['The east entrance is open on weekends.', 'The east entrance is closed on weekends.', 'semantic_conflict', 'a word and its antonym'],
  ['The SDK supports Node 18.', 'The SDK does not support Node 18.', 'semantic_conflict', 'a denial that keeps the figure'],
  ['Error tracking runs on Sentry.', 'Error tracking: Rollbar (migrated off Sentry last sprint)', 'rdf_conflict', '"migrated off X" names the old value'],
  ['Docs are written in Markdown in the repository.', 'The repo docs are AsciiDoc now.', 'rdf_conflict', 'a subject written short ("repo")'],
  ['Anna is our account manager at the agency.', 'Our new account manager at the agency is Pedro, Anna moved to another client.', 'rdf_conflict', 'a new holder; "moved to another" is no addition'],
  ['Nightly backups run at 2:00 UTC.', 'backups now kick off at 04:00 UTC', 'rdf_conflict', 'a plural subject before its verb, and one after "now"'],
  ['Our SMS provider is Twilio.', 'Switched outbound SMS to MessageBird to cut costs.', 'rdf_conflict', 'a note that opens with what was done'],
  ['The mobile app supports iOS 16 and later.', 'Minimum iOS version for the app was raised to 17.', 'rdf_conflict', 'an attribute "for the app"'],
  ['Support hours are 9 to 5 on weekdays.', 'As of this month, support is staffed from 8am to 8pm on weekdays.', 'rdf_conflict', 'hours as bare figures and as a span'],
  ["I'm training for a half marathon.", 'I stopped training for the half marathon after my knee injury.', 'rdf_conflict', 'a stop that repeats the figure'],
  ['The user keeps their notes in Notion.', 'The user has moved all of their notes into Obsidian.', 'rdf_conflict', '"notes" is no short form of "Notion"'],
  ['Our analytics run on Mixpanel.', 'We dropped Mixpanel for PostHog in Q2.', 'rdf_conflict', 'dropped X for Y'],
  ['Error tracking is done with Sentry.', 'We ripped out Sentry; errors go to Rollbar these days.', 'rdf_conflict', 'ripped out X; … go to Y'],
  ['Layla is allergic to penicillin.', "Layla's penicillin allergy turned out to be wrong, she is not allergic after all.", 'semantic_conflict', 'a claim corrected'],
  ['The newsletter goes out every Friday.', 'Newsletter cadence changed: it now goes out every other Tuesday.', 'rdf_conflict', 'a cadence, after a clause with a colon'],
  ['Deploys to prod require two approvals.', 'Only one approval is needed for prod deploys from now on.', 'rdf_conflict', '"only one" counts'],
  ['Default branch: master', 'We renamed the default branch to main.', 'rdf_conflict', 'a one-line note, renamed'],
  ['We send transactional email through SendGrid.', 'Transactional emails are sent via Postmark since March.', 'rdf_conflict', '"via" names the value, not a source'],
  ['Meeting notes 3/14: agreed to ship v2 in April. Ravi owns the migration plan.', 'Ravi handed the migration plan to Sunita when he went on leave.', 'rdf_conflict', '"plan to" is no plan here'],
  ['I drive a 2016 Golf.', 'Sold the Golf. Getting around on an e-bike for now.', 'rdf_conflict', 'a note that opens with what its writer did'],
  ['Daniela heads up customer success.', 'CS is now led by Femi; Daniela took a role in sales.', 'rdf_conflict', 'who heads a team, named by its initials'],
  ['Marta is pregnant with her first child.', "Marta isn't pregnant, that was a misunderstanding; it was her sister.", 'semantic_conflict', 'a misunderstanding corrected'],
  ['We deploy with Capistrano.', 'Since the Kubernetes move, deploys go through Argo CD; Capistrano is gone.', 'rdf_conflict', 'the old value gone beside a new one'],
  ['Node version: 18.19', 'node version bumped to 20.11', 'rdf_conflict', 'a note\'s figure, its key named again as the subject'],
  ['Region: us-east-1', 'Region: eu-west-1 (moved for GDPR)', 'rdf_conflict', '"us-" is no pronoun, and a value\'s brackets are no part of it'],
  ['Build time: ~14 min', 'build time down to 6 min after caching', 'rdf_conflict', '"down to" in a terse note'],
  ['The company car is a Skoda Octavia.', 'The Octavia was replaced by a Tesla Model 3.', 'rdf_conflict', 'the older\'s value, named as the one replaced, is the subject'],
  ['Our accounting software is Xero.', 'Accounting moved off Xero to QuickBooks at the start of the year.', 'rdf_conflict', 'moved off the older\'s value'],
  ["Leo's team owns the billing service.", 'Billing service ownership moved to the payments team.', 'rdf_conflict', 'ownership moved to a holder without a name'],
  ['Chris is married to Anna.', 'Chris and Anna divorced last year.', 'rdf_conflict', 'a state ended, said by its antonym'],
  ['The shared drive has 2 TB of space.', 'IT expanded the shared drive to 5 TB.', 'rdf_conflict', '"IT" is a department, and "of space" counts nothing'],
  ['fyi my work laptop is a Dell XPS 13', 'btw IT swapped my Dell for a Lenovo T14 this week', 'rdf_conflict', 'a department swapped the older\'s value'],
  ['User is allergic to peanuts.', "User clarified they're not allergic to peanuts, only to tree nuts.", 'semantic_conflict', 'a claim clarified away'],
  ["The app's crash reporter is Bugsnag.", 'We replaced Bugsnag with Crashlytics last sprint.', 'rdf_conflict', '"crash" is no short form of "Crashlytics"'],
  ['Monthly active users: ~40k', 'MAU is at 55k as of this week.', 'rdf_conflict', 'a key written as its initials'],
  ["The cleaner comes every Monday at 8.", 'Agency rebooked the cleaner: the cleaner now comes at 11, same weekday.', 'rdf_conflict', 'an outside actor rebooked the older\'s subject'],
  ['Payroll runs on the 28th.', 'HR wants payroll to run on the 30th instead of the 28th.', 'rdf_conflict', 'the older\'s figure named as the one replaced'],
  ['Billing email: ap@contoso.com', 'Updated billing email — finance@contoso.com', 'rdf_conflict', '"Updated" key, spaced dash'],
  ["The router admin password is 'blue-88'.", "IT rotated the router admin password; it's 'green-31' now.", 'rdf_conflict', 'a credential rotated'],
  ["I'm watching Severance at the moment.", 'Finished the Severance season, started Andor.', 'rdf_conflict', 'the older\'s activity finished'],
  ['The user wants summaries as tables.', 'The user asked me to stop using tables and write plain sentences instead.', 'rdf_conflict', 'stop doing one thing, another instead'],
  ['Search API limit: 200 requests per minute', 'Search API limit raised to 300 rpm.', 'rdf_conflict', 'a rate in one word'],
  ['Omar is on parental leave until March.', 'Omar extended his leave through June.', 'rdf_conflict', 'an end date moved'],
  ['The streaming plan costs $12 a month.', 'The streaming service put the plan price up — $15 a month from June.', 'rdf_conflict', 'a price "put up"'],
  ['Expense reports are approved by the office manager, Lisa.', 'Approval duty moved to the finance team; Lisa handles travel now.', 'rdf_conflict', 'a duty moved from a passive holder'],
  ['We have two dogs, Rex and Bella.', 'Unfortunately Rex died in March, so it is just Bella now.', 'rdf_conflict', 'one of the older\'s members died'],
  ['Meeting notes, Mar 4: talked to Pia from Lumen. Their office is in Ghent and they invoice monthly.', 'Pia called. Lumen closed the Ghent office; they work from Brussels now.', 'rdf_conflict', 'a place closed, under a dated notes label'],
  ['The lobby printer is broken.', 'The lobby printer got repaired yesterday.', 'rdf_conflict', 'a state flipped by its antonym, told with when'],
  ['Helpdesk hours: 9am-5pm', 'The helpdesk is now 24/7.', 'rdf_conflict', '"24/7" is a span of hours'],
  ['Favourite cuisine: Thai', 'She now prefers Ethiopian cuisine.', 'rdf_conflict', 'a preference note told as a preference'],
  ['Piano lessons are on Monday evenings.', 'The teacher asked to move piano lessons to Friday evenings.', 'rdf_conflict', 'moved to another day in other words'],
  ['Alerts go to the #ops-alerts channel.', 'Send alerts to #oncall from now on; #ops-alerts is archived.', 'rdf_conflict', 'the older\'s channel archived beside a new one'],
  ['The family car is a Ford Focus.', 'Sold the Focus — we share a car-club car now.', 'rdf_conflict', 'a clause opening with a verb before a dash is no key'],
  ['Agency fee is $2,000/month.', 'Agency fee renegotiated: $2,400 per month from July.', 'rdf_conflict', 'a key said to be renegotiated is no key'],
  ['Ines handles the books.', 'The books have been outsourced to an accounting firm; Ines now does HR.', 'rdf_conflict', 'a duty outsourced'],
  ['The VPN server is vpn-02.', 'vpn-02 was decommissioned; remote access goes through Tailscale.', 'rdf_conflict', 'the older\'s value stopped, as the newer\'s subject'],
  ['Noor: I work at the library.', 'Noor: Guess what, I got hired at the museum!', 'rdf_conflict', '"got hired" between two short first-person lines'],
  ["The user's son is in grade 2.", "The user's son started grade 3 this autumn.", 'rdf_conflict', '"started" a new grade'],
  ['The patient takes metformin 500mg.', 'The GP raised the metformin to 1000mg.', 'rdf_conflict', 'someone the older never names changed its figure'],
  ['The log rotation runs at 2:00.', 'Log rotation schedule: 4:00 from tonight (the backup job overlaps 2:00).', 'rdf_conflict', 'a bracketed aside names no value, and "from tonight" is when it changes'],
  ['The gym membership is off-peak.', 'Upgraded the gym membership to full access.', 'rdf_conflict', 'upgraded to another'],
  ['The user wakes up around 7am.', 'The user has been waking up closer to 5am since the new job started.', 'rdf_conflict', '"has been … since" an event'],
  ['Monthly costs: rent £1,200, phone £25, gym £40.', 'The gym went up to £45 a month in January.', 'rdf_conflict', 'a field of a record'],
  ['Weekly plan: swim Tuesday 7am, choir Wednesday 8pm, market Saturday.', 'Choir is now on Thursdays at 8pm.', 'rdf_conflict', 'a record\'s field moved to another day'],
  ['Patient notes: takes vitamin D daily, walks every morning, sleeps badly.', 'Patient update: stopped taking vitamin D after the blood test came back normal.', 'rdf_conflict', '"<topic> update:" is a lead-in'],
  ['Omar mentioned his father lives in Tunis.', "Omar's father moved to Marseille in the spring.", 'rdf_conflict', 'what someone said of their own relation is theirs'],
  ['Tenant at flat 3C: Ms. Hale, lease through March.', 'Flat 3C is empty; Ms. Hale moved out when the lease ended.', 'rdf_conflict', '"3C" after "flat" is a flat, no figure'],
  ['Our go-to pizza place is Luigi\'s on Park Lane.', "Luigi's on Park Lane shut down, so we order from Forno now.", 'rdf_conflict', 'the older\'s value shut down, as the newer\'s subject'],
  ['Pat works part-time at the bakery.', 'Pat went full-time at the bakery in May.', 'rdf_conflict', '"went full-time"'],
  ['Mr. Grant is our accountant.', 'Mr. Grant retired in March; his firm assigned us a new accountant, Ms. Diaz.', 'rdf_conflict', 'a personal role held by someone new'],
  ['The user\'s landlord is Mr. Webb.', 'The flat was sold; the new landlord is Oakridge Lettings.', 'rdf_conflict', 'a new landlord'],
  ['The gardener comes every other Monday.', 'The gardener is coming weekly now, Mondays.', 'rdf_conflict', 'a cadence replaced'],
  ['Tariq is on the sales team.', 'Tariq transferred to the partnerships team in May.', 'rdf_conflict', '"transferred to"'],
  ["Lee: I'm renting a room in a shared house.", 'Lee: Finally moved into a flat of my own!', 'rdf_conflict', 'a done verb after an opening adverb speaks in the first person'],
  ['The user takes aspirin for headaches.', 'The user was told to avoid aspirin and take paracetamol instead.', 'rdf_conflict', '"told to avoid" is what was said, not a reason'],
  ['Ravi is on paternity leave until June.', 'Ravi is back from leave, as of this week.', 'rdf_conflict', '"back from" stops what the older says'],
  ['Nia is single.', 'Nia got engaged last weekend!', 'rdf_conflict', '"got engaged" is a change of state'],
  ['The user wears a cast on their arm.', 'The user got the cast off this morning!', 'rdf_conflict', 'a state stopped today is no one-off'],
  ['The API proxy times out after 20 seconds.', 'Proxy timeout raised to 45s.', 'rdf_conflict', 'one thing named in other words beside one figure each'],
  ['Max file size for uploads is 10 MB.', 'Upload limit bumped to 20MB per file.', 'rdf_conflict', 'a qualified subject and its noun elsewhere'],
  ['billing day: last Monday of the month', 'billing day moved to the 3rd', 'rdf_conflict', 'a day of the month is a date'],
  ['status: studying', 'status: employed (started at Aviva Mon)', 'rdf_conflict', 'a label over a short value is a key, and a participle there is a state'],
  ['Standup notes: Ola owns the backlog, Finn is on support duty, demos are Fridays.', 'Support duty rotates to Ines next week.', 'rdf_conflict', 'a duty rotated to someone'],
  ['Cloud spend is around $20k/month.', 'After the savings plan kicked in, cloud spend is closer to $15k a month.', 'rdf_conflict', 'an opening clause of an event marks a change'],
  ['The essay is due Thursday.', 'The teacher moved the essay deadline to next Monday.', 'rdf_conflict', 'moved to next Monday'],
  ['The user has a mortgage with Barclays.', 'The user remortgaged with Nationwide last spring.', 'rdf_conflict', '"remortgaged" marks a change'],
  ["The user's bedtime is 11pm.", 'The user has been staying up until 1am since the new job started.', 'rdf_conflict', '"has been … since <something> started"'],
  ['Our note-taking app is Evernote.', 'The note-taking team has moved to Obsidian, Evernote subscriptions not renewed.', 'rdf_conflict', 'the older\'s value named beside a new one, subjects sharing a word'],
  ['User mentioned they work weekends at the cafe.', "User said they've moved to weekday shifts now.", 'rdf_conflict', 'what the user said of themselves is theirs'],
  ["User's climbing gym is The Arch.", 'User cancelled The Arch and joined a bouldering club instead.', 'rdf_conflict', 'a name of the older stopped, few words in common'],
  ['User is training for a marathon in May.', 'User pulled out of the May marathon after a knee injury.', 'rdf_conflict', 'a stop names what stops, whatever else differs'],
  ['User keeps notes in Notion.', 'User moved their notes into Bear 2 last month.', 'rdf_conflict', '"moved … into" a product named with its number'],
  ['User is vegan.', 'User has started eating fish again.', 'rdf_conflict', 'what someone eats says which diet they keep'],
  ['User is single.', 'User is in a relationship with someone named Jo.', 'rdf_conflict', 'one state replaced by another, no marker needed'],
  ["User's father is recovering from a fall.", "User's father is fully recovered.", 'semantic_conflict', 'a state and its antonym'],
  ['User is studying for the CPA exam.', 'User passed the CPA exam.', 'rdf_conflict', '"passed" the older\'s object stops it'],
  ["I'm based in Oslo.", 'Just finished relocating — I live in Bergen now.', 'rdf_conflict', '"based" is no past'],
  ["I'm learning Kotlin in my spare time.", "I've paused Kotlin to study for my exams.", 'rdf_conflict', '"paused" stops'],
  ['I take my tea with sugar.', 'I cut sugar out of my tea completely.', 'rdf_conflict', '"cut … out" stops'],
  ["I'm saving 5% of my salary each month.", "I've upped my savings to 8% of my salary.", 'rdf_conflict', '"upped … to"'],
  ['I do the laundry on Sundays.', 'I do the laundry on Saturday mornings now, Sundays are too busy.', 'rdf_conflict', 'the older\'s day kept as the reason'],
  ['Ana is the club secretary.', 'Ana handed the secretary role to Luis at the AGM.', 'rdf_conflict', 'a role handed to someone'],
  ['The kids have piano on Monday and judo on Friday.', 'Judo moved to Thursday this term.', 'rdf_conflict', 'a thing the older names said to have moved'],
  ["The user's usual lunch is the noodle bar on Elm St.", 'The noodle bar on Elm St closed; the user brings lunch from home now.', 'rdf_conflict', 'what closed is the newer\'s subject, the older\'s value'],
  ['The dataset is public.', 'We made the dataset private after the audit.', 'rdf_conflict', 'a state changed to its antonym, in other words'],
  ['Priya owns the billing service.', 'The billing service is owned by the payments team now.', 'rdf_conflict', 'a holder without a name, "now"'],
  ['The user is a member of the climbing club.', 'The user let their climbing club membership lapse.', 'rdf_conflict', '"let … lapse" stops'],
  ["The user's kettle is a Breville.", 'The kettle broke and the user replaced it with a Smeg.', 'rdf_conflict', 'an old value named by a pronoun is unknown, not elsewhere'],
  ['User is training for the Berlin Marathon in September.', 'User deferred their Berlin Marathon place to next year.', 'rdf_conflict', '"deferred"'],
  ['User uses a Galaxy S22.', "User's Galaxy S22 was stolen; they're on an old iPhone for now.", 'rdf_conflict', 'the older\'s value stolen'],
  ["User's son is 6.", "User's son turned 7 on Sunday.", 'rdf_conflict', '"turned" an age'],
  ["User's preferred hotel chain: Hilton", 'User has gone off Hilton after a bad stay; prefers Hyatt now.', 'rdf_conflict', '"gone off" stops'],
  ['We get our veg box delivered by Abel on Fridays.', "We've stopped Abel — the veg comes from the market now.", 'rdf_conflict', 'a present passive is no past; a stop of the older\'s provider'],
  ["The API's p95 latency budget is 300 ms.", 'We tightened the p95 latency budget to 200 ms.', 'rdf_conflict', '"tightened … to"'],
  ['The user runs Ubuntu on their laptop.', 'The user wiped Ubuntu and installed Fedora on the laptop.', 'rdf_conflict', 'wiped one, installed another'],
  ['The user walks to work.', 'The user cycles to work these days.', 'rdf_conflict', 'the same thing done another way, now'],
  ['Sam rents a flat in Leeds.', 'Sam owns a flat in Leeds now.', 'rdf_conflict', 'only the verb replaced, now'],
  ['Victor is the account manager for Globex.', 'Globex has a new account manager: Ines.', 'rdf_conflict', '"… has a new …:" is no key'],
  ['The user goes to bed around midnight.', 'User has been going to bed around 10:30 lately.', 'rdf_conflict', 'midnight is a clock time, and "going to bed" no plan'],
  ['The user is training for the Berlin marathon in September.', 'Catching up with the user: work is busy, they adopted a cat, and they pulled out of the Berlin marathon because of a knee injury.', 'rdf_conflict', 'a clause before a colon is no key; "pulled out of" stops'],
  ['Patient takes 20 mg of atorvastatin each night.', 'The cardiologist raised his atorvastatin to 40 mg daily.', 'rdf_conflict', 'a dose followed by how often counts no days'],
  ['The k8s staging cluster runs 1.28.', 'Upgraded staging k8s to 1.30 this afternoon, nothing broke.', 'rdf_conflict', 'a denial in an aside about something else'],
  ['Metrics retention in Prometheus: 15 days', 'We cut Prometheus retention to 7d to save disk.', 'rdf_conflict', 'a duration written short'],
  ['The design review is on Oct 20.', 'Heads up: the design review now happens Oct 22, not the 20th.', 'rdf_conflict', 'the older\'s day named as the one replaced'],
  ['Max attachment size for the helpdesk is 10 MB.', 'I raised the helpdesk attachment cap to 30MB.', 'rdf_conflict', 'a bound named in other words'],
  ['FY26 marketing budget for the EU team: $120k', "Finance trimmed the EU team's FY26 marketing budget to $95k.", 'rdf_conflict', "an attribute's words in another order"],
  ["Sam's birthday is 3 May.", 'Sam said his birthday falls on 13 May.', 'semantic_conflict', 'a date that is what the subject is'],
  ['Home internet provider: BT, 500 Mbps.', 'We switched broadband to Hyperoptic last month.', 'rdf_conflict', 'the key named in other words'],
  ['The user gets to the studio by car most days.', 'User now cycles to the studio instead of driving.', 'rdf_conflict', 'the older\'s value named as replaced, in other words'],
  ["I'm pescatarian, have been for about ten years.", 'Gave up the pescatarian diet, honestly.', 'rdf_conflict', 'an opening past verb speaks in the first person'],
  [
    'Handover for the search cluster. It runs Elasticsearch 8.11, snapshots go to S3 nightly, and the JVM heap is set to 16 GB. Ping Omar about the slow-log dashboards.',
    'Search cluster handover, week 12. Omar fixed the slow-log dashboards. After the last incident we bumped the JVM heap to 24 GB, and GC pauses dropped. Snapshots still go to S3.',
    'rdf_conflict', 'one clause among others in two longer notes',
  ],
  [
    'Sprint notes. Demo on Thursday went well. Kai owns the release checklist, and he wants help with the changelog. Retro moved to the big room.',
    'Sprint notes again. Kai is off for two weeks, so Mei has picked up the release checklist from him. The demo is on Thursday as usual.',
    'rdf_conflict', 'a holder who picked it up from the older one, in a longer note',
  ],
  ['Parking space: $210/mo', 'parking space goes up to 235 from March', 'rdf_conflict', 'a bare amount beside a price is in its currency'],
  ['Python version in CI image: 3.11', 'CI image upgraded to python 3.12', 'rdf_conflict', 'a version counts nothing'],
  ['Search API rate limit, basic plan: 100 req/min', 'basic plan limit cut to 50 rpm from Monday', 'rdf_conflict', 'rates written two ways'],
  ['Picked up a second-hand Golf last month, runs great.', 'Sold the Golf, finally!', 'rdf_conflict', 'a past that began a state, stopped'],
  ["Jas: I'm drumming in a wedding band called Blue Garter, gigs most Saturdays.", "Jas: I'm out of Blue Garter, they found a new drummer.", 'rdf_conflict', '"I\'m out of" a band is a stop'],
  ['User wants answers in a formal tone.', 'User now prefers a casual tone in replies.', 'rdf_conflict', 'one register at a time'],
  ["Kai's train to Leeds is on June 4.", 'Kai rebooked the Leeds train, leaving June 6 instead.', 'rdf_conflict', 'a date named with "instead"'],
  ['User swims twice a week before work.', 'User has bumped swimming up to four days a week.', 'rdf_conflict', 'how often, in times or days a week'],
  ['Terminal: iTerm2.', 'User switched to WezTerm and wants WezTerm configs instead of iTerm2 ones.', 'rdf_conflict', 'a note keyed by what the user has, its value replaced by the user'],
  ['Leo has no pets.', 'Leo took his dog to the vet this morning.', 'semantic_conflict', 'a denial of what the denied kind covers'],
  ['Omar has never been to Brazil.', 'Omar visited Brazil last year with his brother.', 'semantic_conflict', '"never been to" / "visited … last year"'],
  ["Grace doesn't drink alcohol.", 'Grace had two glasses of wine at the launch party.', 'semantic_conflict', 'the denied thing, named by its kind'],
  ["Nina's anniversary is June 3rd.", "Nina's anniversary is on the 30th of June.", 'semantic_conflict', 'a day of the month as what the subject is'],
];

const LOOK_ALIKES: Array<[string, string, string]> = [
  ['Maria is a member of the chess club.', 'Maria also joined the hiking club.', 'a second membership'],
  ['Grace is learning Rust.', 'Grace is learning Go.', 'another hobby'],
  ['Grace met Eve in Lisbon.', 'Grace met Eve in Paris.', 'another meeting'],
  ['Alice had lunch with Bob at Nopa.', 'Alice had lunch with Bob at Zuni.', 'another lunch'],
  ['The Berlin office is on Friedrichstrasse.', 'The Munich office is on Leopoldstrasse.', 'another office'],
  ['The Pro plan costs $20 per month.', 'The Basic plan costs $10 per month.', 'another product tier'],
  ["Paul is 30 years old.", "Paul's brother is 27 years old.", 'a relative of the subject'],
  ['Alice lives in Berlin.', 'Bob lives in Munich.', 'another person'],
  ['The Pro plan costs $20 per month.', 'The Pro plan includes 5 seats.', 'same subject, another attribute'],
  ['We use Jenkins for CI.', 'We plan to move CI to GitHub Actions next quarter.', 'a plan'],
  ['Ana lives in Lisbon.', 'Ana used to live in Madrid before the reorg.', 'history'],
  ['The upload limit is 10 MB.', 'The upload limit is 10,240 KB.', 'the same value in other units'],
  ['The kickoff is at 10 am.', 'The kickoff is at 10:00.', 'the same time written another way'],
  ['Henry ran 5 km on Monday.', 'Henry ran 10 km on Wednesday.', 'another occasion'],
  ['John joined a firefighting brigade.', 'John is now part of the fire-fighting brigade.', 'restated with "now"'],
  ['My manager is Priya Raman.', "Priya's manager is the VP of Engineering, Laura Chen.", "the named person's relation"],
  ['The conference budget for this year is $12,000.', "Last year's conference budget was $10,000.", 'another period ("this year" / "last year")'],
  ['Lisa is the point of contact for the Acme account.', 'Lisa is also the point of contact for the Globex account.', 'one more ("also")'],
  ['Bob reports to Carol.', 'Carol reports to Dave.', 'a reporting chain'],
  ['Team size: 6 engineers.', 'Design team size: 2 designers.', 'a key with a modifier before it'],
  ['Priority for the billing bug: P2.', 'Priority for the login bug: P1.', 'a key opening with a capital, about another thing'],
  ['Contact at Northwind: Helen Park, procurement.', 'Contact at Northwind for legal: Sam Ortiz.', 'a key qualified further'],
  ['We pay $49/month for the Figma team plan.', 'We pay $12/user/month for Notion.', 'a figure and a name of another thing'],
  ['John joined an online book club.', 'John is part of a virtual chess group.', 'two words for one state ("online", "virtual")'],
  ['Maya works remotely.', "Maya's husband works in the office.", 'a state of a relative'],
  ['Annual dues are $150 per member.', 'Annual dues for students are $75.', 'a plural noun before the verb, qualified ("for students")'],
  ['Nina handles vendor invoices.', 'Nina might hand vendor invoices to Tom when she goes on leave.', 'a hand-over that might happen'],
  ['The building was completed in 1998.', 'The building was renovated in 2015.', 'another event of the same thing'],
  ["The kids' school starts at 8:15.", "The kids' school ends at 3:10.", 'the two ends of one thing'],
  ['The office opens at 8:30.', 'The office closes at 6pm.', 'the two ends of one thing (open / close)'],
  ['The server has 64 GB of RAM.', 'The server has 2 TB of disk space.', 'figures of two things the subject has'],
  ['The Team plan is priced at $15 per seat per month.', 'The Team plan is priced at $150 per seat per year.', '"per seat", "per year" are no source cited'],
  ['The desktop client 2.7.0 shipped in May.', 'The web client 2.9.1 shipped today.', 'a release of another thing'],
  ['Sync notes 6/11: contract signed, two new hires, go-live set for May 12.', 'The office party is set for June 2.', 'another item of the list'],
  ['Mum takes 5 mg of the thyroid medication every morning.', 'Mum takes 1000 mg of fish oil every morning.', 'a dose of another medicine'],
  ['Dana is one of the admins of the billing project.', 'Dana is an admin of the payroll project.', '"one of" counts nothing'],
  ['The monthly cloud bill is about $8k, per finance.', 'The monthly cloud bill was about $6k last year, per finance.', 'another period, the same source'],
  ['We use Jenkins for CI.', 'Did we switch CI to GitHub Actions?', 'a question'],
  ['The Pro plan costs $20 a month.', 'The plan for teams went up to $45 a month.', 'a plan qualified ("for teams"), its figure changed'],
  ['Last year the offsite was in Porto.', "This year's offsite is in Seville.", 'a past period the newer does not name'],
  ['The weekly sync is on Mondays at 2pm.', 'If the release slips, we could move the weekly sync to Tuesday.', 'a maybe'],
  ['The nightly job was failing on Monday.', 'The nightly job is passing on Wednesday.', 'a flip between two named days'],
  ['Omar enjoys working with the mobile team.', 'Omar has a new role and enjoys working with the data team.', 'news, no switch in so many words'],
  ["Priya: Yeah Sam, I'm always here for you!", 'Sam: Hey Priya, I had to shut down my old studio.', 'two speakers, each addressing the other'],
  ['Mia: Wow, looks great!', 'Noah: Wow, that sunset pic looks incredible!', '"sunset" is no product sunset'],
  ["Ava: It's so great to make a real difference.", "Liam: That's a great lesson to pass on to your kids, Ava.", 'a chat line handing nothing over'],
  ['Ana: Nothing beats a good meal with loved ones, it makes great memories!', 'Ben: We ended up laughing and having a good time.', '"ended up" stops nothing'],
  ["Jo: Yeah, it's been awesome!", 'Jo: Yesterday my partner and I got back from an awesome trip to Rio - we checked out some cool yoga classes.', 'an evaluation states nothing'],
  ['Ria: Awesome, Jolene!', 'Ria: Zelda for Switch is an awesome open-world game.', 'a verbless exclamation states nothing'],
  ['Ria: Sounds like an incredible road trip.', 'Ria: I just got back from a road trip with my friends - we saw some stunning countryside.', 'a reaction states nothing'],
  ['Tom: Way to go, John!', 'Tom: Relaxing with them is a great way to chill.', 'congratulations state nothing, relaxing "with" loosens no limit'],
  ['Setbacks can be tough, but you are doing great.', 'Since I lost my job at Door Dash, things have been tough.', 'a word of judgement is no shared topic'],
  ['Hey Nate, long time no see! How are you?', 'But she retired a long time ago.', 'a greeting after two openers states nothing'],
  ['Contemporary dance is so expressive and graceful - it really speaks to me.', 'We do all kinds of dances, from contemporary to hip-hop.', 'a range ("all kinds of … from X to Y") is no change'],
  ["I'm planning a ring-toss tournament for the homeless shelter's fundraiser.", 'Last week I dropped off the cookies I baked at the homeless shelter.', '"dropped off" is a delivery, no stop'],
  ["I'm gonna be in Japan for a few months then off to Boston!", 'We ended with a show in Japan and then I explored my new place.', '"ended with" ends nothing held'],
  ['Gina: Any particular movies that spark your writing? [shares a photo: a turtle on a bed of rocks]', 'Gina: Is there a favorite piece from your early writings that stands out? [shares a photo: a turtle on rocks]', 'questions followed by an aside'],
  ["Nate: I'm currently participating in the video game tournament again and it's intense!", 'Nate: I\'m currently playing this awesome fantasy RPG called "Xenoblade Chronicles"!', '"currently" in two chat lines about two things'],
  ['Gym hours are 6 to 10 on weekdays.', 'The pool is open from 7am to 9pm.', 'another facility\'s hours'],
  ['Deploys need one approval.', 'Deploys now need two approvals for anything touching billing.', 'a rule narrowed to a part is an exception beside it'],
  ['The pool opens at 7am.', 'The pool opens at 6am during the summer holidays.', 'a time of year is an exception beside the rule'],
  ['Standup starts at 9:15.', "Today's standup started at 9:40 because the room was taken.", '"started at" is one day\'s start, no change'],
  ['Monthly costs: rent £1,200, phone £25, gym £40.', 'The phone bill was £31 last month because of roaming.', 'one month\'s bill beside a record\'s field'],
  ["The user's dentist is Dr. Patel.", "The user's GP is Dr. Hughes.", 'two personal roles'],
  ['Monthly quiz night is at the Red Lion.', "Quiz night this month is at the Swan because the Red Lion is closed for repairs.", "this month's occasion"],
  ['Omar lives in Leeds.', 'Omar was in Glasgow for a wedding this weekend.', 'a visit this weekend is no move'],
  ['The app build uses Java 17.', 'The backend build uses Java 21.', 'a subject with a modifier of its own is another instance'],
  ['The Stripe secret key is kept in Vault.', 'The Stripe secret key was rotated on Friday.', 'something done to the subject, nothing it now is'],
  ['We are on the Team plan of Netlify.', "Moved to Netlify's Starter plan for the side project.", 'another account, for the side project'],
  ['The staging server times out after 20 seconds.', 'The production server timeout was raised to 45s.', 'two instances, one figure each'],
  ['language: English', 'language: German for the Berlin office', 'a note\'s value for another one'],
  ['The team has 6 designers.', 'Two designers joined this week.', 'a count that came is no new total'],
  ['Entry fee for the museum is £12.', 'Entry fee dropped to £8 for students.', 'a price for a group is an exception beside it'],
  ['Base salary for the role is $60k.', 'Starting salary for the role is $60k, rising to $65k after a year.', '"Starting" opening a sentence is no name'],
  ['User said their flight to Rome is BA 550.', 'User said their return flight is BA 557.', 'a return flight is another flight'],
  ['Client: Northwind Ltd. Plan: Pro. Seats: 12.', 'Client: Southgate plc. Plan: Pro. Seats: 30.', 'two records under one key'],
  ['Alice lives in Paris with Bob.', 'Bob moved to Lyon for work.', 'someone the older names, moved: not the older\'s subject'],
  ['The hotel holds 300 guests.', "The hotel's annex holds 40 guests.", 'a part of a place, named with its possessive'],
  ["User's desk is in the Leeds office.", 'User is working from the York office this week.', '"working from" is no "from now on": this week is one occasion'],
  ['The sprint review is on Friday at 2.', "This sprint's review is on Thursday at 2 because of the bank holiday.", "this sprint's meeting is one occasion"],
  ['I swim at the lido on Mondays.', 'I swim at the lido on Mondays and Thursdays now.', 'a day joined to the older\'s is one more'],
  ["The user's savings goal is $5,000 this year.", 'The user has saved $1,200 so far this year.', 'progress towards a goal is no new goal'],
  ["The user's brother lives in Sydney.", "The user's brother is moving back to Ireland next summer.", 'a move told for a coming season is a plan'],
  ['Maya: I am writing a novel about sailors.', 'Maya: I just finished with the first chapter of my next novel!', 'finishing a part of something is no stop of it'],
  ['The bridge was completed in 1932.', 'The bridge was repainted in 2010.', 'two events of one thing'],
  ['Just finished relocating — we live in Oslo.', 'We live in Oslo and love it.', 'a clause before a dash is no key'],
  ['The office is open from 9am to 5pm.', 'The office is open from 9am to 5pm, Monday to Friday.', 'a span is no change from one value to another'],
  ['The office opens at 9.', 'The office will open at 10 on Boxing Day.', 'a holiday is one day, not a new rule'],
  ['Release cadence: every 2 weeks', 'Release cadence: fortnightly', 'a cadence restated'],
  ['Retro happens on Friday afternoons.', 'Retro this Friday is cancelled because of the offsite.', 'one Friday\'s meeting cancelled'],
  ["Kim's phone is a Pixel 7.", 'Kim had a Pixel 4 before this one.', 'the one before, told as history'],
  ['Dana manages the support team.', 'Dana now leads the support team.', 'one holder, reworded'],
  ['Alice likes running.', 'Alice loves running these days.', 'a feeling, not a replacement'],
  ['The user lives with their parents in Lyon.', "Long chat today. The user's sister just moved to Marseille and rents a studio near the port.", 'someone\'s relation is another subject'],
  ['The kitchen printer is out of toner.', 'The office printer is out of paper.', 'a printer out of paper is no stop'],
  ['Mo calls his mum every Sunday.', 'Mo called his mum on Friday instead this week.', 'one week\'s day "instead" is no move'],
  ['libfoo: debian/control: Mark libfoo-doc as Multi-Arch: foreign.', 'libfoo: debian/control: Bump Standards-Version to 4.6.2.', 'two changelog lines of two things'],
  ['libbar: debhelper-compat 13', 'libbar: Standards-Version: 4.6.2', 'figures of two attributes under one key'],
  ['perl-xyz: Upgraded to the new Debian Perl packaging policy', 'perl-xyz: Take over for the Debian Perl Group', 'a team taking over what the older says no one holds'],
  ['xdg-foo: Instead of using sed -i in the postinst, use a temp file.', 'xdg-foo: Maintain the patches in git instead of using quilt.', 'a verb named as replaced names no value'],
  ["Ines: I haven't read the sequel yet, I'll let you know.", "Ines: I'm reading the sequel now and it's great!", 'what has not happened yet is no denial'],
  ['Mo: Then I have no doubt your team will love it!', 'Mo: My team loved the demo last week.', 'a saying denies nothing'],
  ['Jon: Thanks! Setbacks can be tough, but with your support I can handle anything.', 'Gina: Since I lost my job at the bakery, things have been tough.', 'a chat line\'s clauses are talk, not notes'],
  ['Ravi bought a new laptop in May.', 'Ravi sold his old laptop in May.', 'the new one and the old one are two'],
  ["Tom doesn't eat meat.", 'Tom ordered the mushroom risotto and skipped the steak.', 'a denial and a choice that keeps to it'],
  ['Ana has no siblings.', "Ana's husband has two brothers.", 'a relative of the subject is another subject'],
  ['The staging API is not rate limited.', 'The staging API is rate limited except for internal callers.', 'a claim of a part only'],
  ['The Q1 filing deadline is March 31.', 'The Q2 filing deadline is June 30.', 'the deadlines of two periods'],
  ['Home internet provider: BT, 500 Mbps.', 'Mobile provider: Three, unlimited data.', 'another provider of another thing'],
  ['xmlbuilder: Added the spacebeforeslash writer option to add a space character before closing tags of empty elements. See #114.', 'xmlbuilder: Calling end() with arguments no longer overwrites writer options. See #120.', 'issue numbers are no values, and a denial of something else stops nothing'],
];

const CONVERSATIONAL = (JSON.parse(readFileSync(new URL('../fixtures/contradictions-conversational.json', import.meta.url), 'utf8')) as {
  pairs: Array<{ older: string; newer: string; expected: V }>;
}).pairs;
// The development lists of writers who never saw the rules (the held-back ones are for the benchmark only).
const INDEPENDENT = (JSON.parse(readFileSync(new URL('../fixtures/contradictions-independent.json', import.meta.url), 'utf8')) as {
  pairs: Array<{ older: string; newer: string; expected: V; split: string }>;
}).pairs.filter((r) => r.split === 'dev');

describe('learned contradiction judge', () => {
  const embedder = new UseLiteEmbedder({ workers: 1 });
  const vectors = new Map<string, Float32Array>();

  beforeAll(async () => {
    await embedder.init();
    const texts = [...new Set([...UPDATES, ...LOOK_ALIKES, ...[...CONVERSATIONAL, ...INDEPENDENT].map((r) => [r.older, r.newer])].flatMap(([a, b]) => [a, b]))];
    const vecs = await embedder.embed(texts);
    texts.forEach((t, i) => vectors.set(t, vecs[i]));
  }, 120_000);
  afterAll(() => embedder.close());

  function judge(older: string, newer: string): LearnedJudgement {
    const [a, b] = [vectors.get(older)!, vectors.get(newer)!];
    let cosine = 0;
    for (let i = 0; i < a.length; i++) cosine += a[i] * b[i];
    const rule = judgePair({ content: newer }, { content: older }, { similarity: cosine }).verdict;
    return judgeLearned(analyzeMemory(newer), analyzeMemory(older), { cosine, sharedEntities: 0, rule });
  }

  it.each(UPDATES)('finds %s → %s (%s, %s)', (older, newer, expected) => {
    expect(judge(older, newer).verdict).toBe(expected);
  });

  it.each(LOOK_ALIKES)('leaves %s / %s alone (%s)', (older, newer) => {
    const j = judge(older, newer);
    expect(j.verdict, `score ${j.score.toFixed(3)}`).toBe('none');
  });

  // The hand-written conversational lists (test/fixtures/contradictions-conversational.json): a
  // floor under what they score now (recall 0.75, precision 0.99), so a change that loses either shows.
  it('holds its recall and precision on the conversational lists', () => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const r of CONVERSATIONAL) {
      const found = judge(r.older, r.newer).verdict !== 'none';
      if (found && r.expected !== 'none') tp++;
      else if (found) fp++;
      else if (r.expected !== 'none') fn++;
    }
    expect(tp / (tp + fn), `recall ${tp} of ${tp + fn}`).toBeGreaterThanOrEqual(0.72);
    expect(tp / (tp + fp), `precision ${tp} of ${tp + fp}`).toBeGreaterThanOrEqual(0.95);
  });

  it('holds its recall and precision on the independent development lists', () => {
    const found = INDEPENDENT.map((r) => [judge(r.older, r.newer).verdict !== 'none', r.expected !== 'none']);
    const tp = found.filter(([f, e]) => f && e).length;
    const fp = found.filter(([f, e]) => f && !e).length;
    const fn = found.filter(([f, e]) => !f && e).length;
    expect(tp / (tp + fn), `recall ${tp} of ${tp + fn}`).toBeGreaterThanOrEqual(0.45);
    expect(tp / (tp + fp), `precision ${tp} of ${tp + fp}`).toBeGreaterThanOrEqual(0.85);
  });

  it('scores the best-aligned sentence pair of a long memory', () => {
    const j = judge(UPDATES[9][0], UPDATES[9][1]);
    expect(j.best?.older).toBe('Grace runs the retro.');
  });
});

describe('pair features', () => {
  it('the committed model matches the feature list and has a threshold in (0, 1)', () => {
    const m = defaultModel();
    expect(m.features).toEqual([...FEATURES]);
    expect(m.weights).toHaveLength(FEATURES.length);
    expect(m.threshold).toBeGreaterThan(0);
    expect(m.threshold).toBeLessThan(1);
  });

  it('splits sentences on lines, bullets and sentence ends, not on abbreviations or decimals', () => {
    expect(sentencesOf('Dr. Smith moved to v2.5 today. Then left.\n  * Bump X to 4.6.2\n- deps: qs@6.5.1')).toEqual([
      'Dr. Smith moved to v2.5 today.', 'Then left.', 'Bump X to 4.6.2', 'deps: qs@6.5.1',
    ]);
    // (nor does a note's short form: "est.", "approx.")
    expect(sentencesOf('Globex deal size est. 90k ARR')).toEqual(['Globex deal size est. 90k ARR']);
    // (an ordinal ends a sentence; "St." before a name does not)
    expect(sentencesOf('Payroll runs on the 1st. Bonuses go out in March. Office at 4 St. Mary St. now.')).toEqual([
      'Payroll runs on the 1st.', 'Bonuses go out in March.', 'Office at 4 St. Mary St. now.',
    ]);
  });

  it('reads values with their units in one canonical form', () => {
    const keys = (s: string) => tokenizeSentence(s).toks.filter((t) => t.kind === 'value').map((t) => t.key);
    expect(keys('10 MB')).toEqual(keys('10,240 KB'));
    expect(keys('at 10 am')).toEqual(keys('at 10:00'));
    expect(keys('2 hours')).toEqual(keys('120 minutes'));
    expect(keys('$1.2M')).toEqual(keys('$1,200,000'));
    expect(keys('version 16.0')).toEqual(keys('version 16'));
    expect(keys('0.7.0')).not.toEqual(keys('0.7'));
    expect(keys('14d')).toEqual(keys('14 days'));
    const values = (x: string) => analyzeMemory(x).sentences[0].values;
    expect(values('Gym five days a week')).toEqual(values('Gym 5 times a week'));
    expect(values('Gym five days a week')).not.toEqual(values('Trip of five days'));
    // (a rate written with a slash is per hour like the others)
    expect(analyzeMemory('API limit: 60 req/min').sentences[0].values).toEqual(analyzeMemory('API limit is 60 requests per minute').sentences[0].values);
  });

  it('reads what a sentence says was replaced, and whether the older memory states that old value', () => {
    const features = (older: string, newer: string) => {
      const [o, n] = [analyzeMemory(older), analyzeMemory(newer)];
      const [[a, b]] = alignedPairs(n, o);
      return sentencePairFeatures(a, b, o, n, { cosine: 0.7, sharedEntities: 0, rule: 'none' });
    };
    expect(analyzeMemory('We moved from AWS to GCP.').sentences[0].replacement).toEqual({ old: ['aws'], new: ['gcp'] });
    expect(analyzeMemory('pkg: Use dh-autoreconf instead of autotools-dev to fix the build.').sentences[0].replacement)
      .toEqual({ old: ['autotoolsdev'], new: ['dhautoreconf'] });
    expect(analyzeMemory('Replaced Jenkins with Buildkite').sentences[0].replacement).toEqual({ old: ['jenkins'], new: ['buildkite'] });
    // The old value the newer names is what the older states: a chain of updates.
    const chain = features('pkg: Depend on libfoo2 instead of libfoo1', 'pkg: Depend on libfoo3 instead of libfoo2');
    expect(chain.features.swap_chain).toBe(1);
    expect(chain.eligible).toBe(true);
    // Neither value of the replacement is in the older memory: about something else.
    const elsewhere = features('pkg: New maintainer', 'pkg: Build with openssl instead of libgcrypt');
    expect(elsewhere.features.swap_elsewhere).toBe(1);
    expect(elsewhere.features.marked_replacement).toBe(0);
    // A new holder of what the older says someone holds.
    expect(features('Dana is the on-call engineer.', 'Eli took over on-call from Dana.').features.holder_new).toBe(1);
  });

  it('the rule judge gives the same verdict on a second call (its text analyses are cached)', () => {
    const pair = [{ content: 'Standup is at 9:30.', similarity: 0.8 }, { content: 'Standup is at 10:00.', similarity: 0.8 }] as const;
    const first = judgePair(pair[1], pair[0]);
    expect(judgePair(pair[1], pair[0])).toEqual(first);
    expect(first.verdict).not.toBe('none');
  });

  it('wilson intervals bracket the proportion and stay within [0, 1]', () => {
    expect(wilson(0, 0)).toEqual([0, 1]);
    const [lo, hi] = wilson(45, 50);
    expect(lo).toBeGreaterThan(0.78);
    expect(lo).toBeLessThan(0.9);
    expect(hi).toBeGreaterThan(0.9);
    expect(hi).toBeLessThanOrEqual(1);
    expect(wilson(50, 50)[1]).toBe(1);
  });
});

describe('agent phrasings: how the features read them', () => {
  const views = (older: string, newer: string) => pairViews(analyzeMemory(newer), analyzeMemory(older), { cosine: 0.7, sharedEntities: 0, rule: 'none' });
  const best = (older: string, newer: string) => views(older, newer)[0];

  it('reads a capitalised opening word as a plain word when the other memory uses it so', () => {
    const [n, o] = reconcile(analyzeMemory('Sprints are now three weeks long.'), analyzeMemory('Our sprint length is two weeks.'));
    expect(n.sentences[0].toks[0]).toMatchObject({ kind: 'word', key: 'sprint' });
    expect(o.sentences[0].toks.some((t) => t.key === 'sprint')).toBe(true);
    // A name stays a name when the other memory never uses the word in lower case.
    const [m] = reconcile(analyzeMemory('Alice moved to Lisbon.'), analyzeMemory('Alice lives in Porto.'));
    expect(m.sentences[0].toks[0]).toMatchObject({ kind: 'name', key: 'alice' });
  });

  it('reads again only the sentences a lowered opening word changes, as a whole reading would', () => {
    const text = 'Sprints are now three weeks long. Bob runs the planning. Reviews happen on Fridays. We ship monthly.';
    const base = analyzeMemory(text);
    const [n] = reconcile(base, analyzeMemory('Our sprint length is two weeks; the reviews are short.'));
    const whole = analyzeMemory(text, new Set(['sprints', 'reviews']));
    const reading = (m: typeof n) => ({ ...m, lowered: undefined });
    expect(reading(n)).toEqual(reading(whole));
    expect(n.sentences[0].toks[0]).toMatchObject({ kind: 'word', key: 'sprint' });
    expect(n.sentences[1]).toBe(base.sentences[1]); // "Bob runs the planning." is not read again
    expect(n.sentences[2]).not.toBe(base.sentences[2]);
  });

  it('a key: value note with its short value replaced, not a key that lists many values', () => {
    expect(best('deploy owner: dana', 'deploy owner: ravi').features.kv_replace).toBe(1);
    expect(best('likes: hiking', 'likes: swimming').features.kv_replace).toBe(0);
    expect(best('deploy owner: dana', 'release owner: ravi')?.features.kv_replace ?? 0).toBe(0);
  });

  it('another environment, tier or qualified instance is another subject', () => {
    expect(best('The cluster has 3 nodes.', 'The test cluster has 1 node.').eligible).toBe(false);
    expect(best('Tickets cost 15 euros.', 'Tickets for children cost 8 euros.').eligible).toBe(false);
    // "We scaled the cluster": the change acts on the other's subject.
    const scaled = best('The cluster has 3 nodes.', 'We scaled the cluster to 5 nodes.');
    expect(scaled.eligible).toBe(true);
    expect(scaled.features.val_diff_same_subj).toBe(1);
  });

  it('changelog lines: figures of two attributes, a team taking over nothing held, a verb named as replaced', () => {
    expect(best('libbar: debhelper-compat 13', 'libbar: Standards-Version: 4.6.2').features.kv_replace).toBe(0);
    expect(best('perl-xyz: Upgraded to the new Debian Perl packaging policy', 'perl-xyz: Take over for the Debian Perl Group').features.ownership_change).toBe(0);
    expect(best('xdg-foo: Instead of using sed -i in the postinst, use a temp file.', 'xdg-foo: Maintain the patches in git instead of using quilt.').features.swap_chain).toBe(0);
    expect(best('libqux: Switch to source format 3.0 quilt.', 'libqux: Switch back to source format 1.0 for now.').features.val_diff).toBe(1);
    expect(best('libqux: New maintainer.', 'libqux: Take over for the Debian Perl Group, as agreed with Bart').eligible).toBe(true);
    // (the same forms, of one thing, still read)
    expect(best('libbar: debhelper-compat 12', 'libbar: debhelper-compat 13').features.val_diff).toBe(1);
    expect(best('perl-abc: Maintainer: Jane Roe', 'perl-abc: Take over for the Debian Perl Group').features.holder_new).toBe(1);
  });

  it('two changes of one package that share no topic are told apart', () => {
    expect(best('pkg: Use salsa.debian.org Vcs-* URLs', 'pkg: Standards-Version updated to 4.2.1').features.topic_disjoint).toBe(1);
    expect(best('pkg: Bump debhelper compat to 12', 'pkg: Bump debhelper compat to v13').features.topic_disjoint).toBe(0);
    expect(best('pkg: Bump debhelper compat to 12', 'pkg: Bump debhelper compat to v13').features.val_diff).toBe(1);
  });

  it('reads a pronoun clause with the one name the memory gave before it, and guesses nothing otherwise', () => {
    expect(extractTriples('Met Tom today; he told me he moved to Lisbon.')).toMatchObject([{ subject: 'tom', predicate: 'lives_in', object_norm: 'lisbon' }]);
    expect(extractTriples('Met Tom and Ana today; he moved to Lisbon.')).toEqual([]);
    expect(extractTriples('She moved to Berlin.')).toEqual([]);
  });

  it('words that name Object.prototype members are plain words', () => {
    expect(() => analyzeMemory('constructor toString: 5 hasOwnProperty per constructor __proto__')).not.toThrow();
    expect(tokenizeSentence('constructor valueOf').toks.map((t) => t.kind)).toEqual(['word', 'name']);
  });
});
