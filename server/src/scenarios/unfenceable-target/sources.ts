// Where a target that takes any write whatever token it carries was met in the wild, and
// what stores offer instead: each source with what it says, in a line.
import type { WildSource } from '@racelab/shared';

export const SEEN_IN_THE_WILD: WildSource[] = [
  {
    title: 'The Chubby lock service for loosely-coupled distributed systems (Google)',
    url: 'https://research.google/pubs/pub27897/',
    summary:
      'For servers that cannot check Chubby’s sequencers, the paper falls back on a lock-delay after a holder fails: a timing mitigation, not a guarantee.',
  },
  {
    title: 'How to prevent object overwrites with conditional writes (Amazon S3 docs)',
    url: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes.html',
    summary:
      'Without a precondition, an upload to an existing key in an unversioned bucket overwrites it; If-None-Match and If-Match compare existence or an ETag, never a number of yours.',
  },
  {
    title: 'Request preconditions (Google Cloud Storage docs)',
    url: 'https://cloud.google.com/storage/docs/request-preconditions',
    summary:
      'Uploads race when independent processes write the same object; ifGenerationMatch makes the store compare the generation number it assigned before it replaces anything.',
  },
];
