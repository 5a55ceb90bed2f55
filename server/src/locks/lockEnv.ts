/** The environment variable that names a lock module of your own (an absolute path). */
export const LOCK_MODULE_ENV = 'RACELAB_LOCK_MODULE';
