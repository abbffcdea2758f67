export interface LiveRun { stop(reason: string): void; done: Promise<void>; }
