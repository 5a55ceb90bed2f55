// redlock 4 ships no types: just what the lock benchmark calls.
declare module 'redlock' {
  interface Lock {
    unlock(): Promise<void>;
  }
  interface Options {
    driftFactor?: number;
    retryCount?: number;
    retryDelay?: number;
    retryJitter?: number;
  }
  class Redlock {
    constructor(clients: unknown[], options?: Options);
    lock(resource: string, ttlMs: number): Promise<Lock>;
    on(event: 'clientError', listener: (error: unknown) => void): this;
  }
  export default Redlock;
}
