// The unfenceable-target scenario's Redis key names (main Redis, without the run's prefix)
// and its file names.

/** The lease on the report. */
export const LOCK_KEY = 'lock:report';
/** The counter every grant takes its fence number from. */
export const FENCE_KEY = 'fence';
/** The versioned-key target: the report, and the fence of the upload it holds. */
export const REPORT_KEY = 'report';
export const REPORT_FENCE_KEY = 'report:fence';
/** The versioned-key target's own count of the uploads it refused. */
export const REFUSED_KEY = 'report:refused';
/** The plain file every upload of file-with-token replaces. */
export const REPORT_FILE = 'report.txt';
