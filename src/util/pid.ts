/** Whether a process id belongs to a running process (ours or another user's). */
export type PidProbe = (pid: number) => boolean;

/** Signal 0 probes without signalling; EPERM means it runs under another user. */
export const isPidAlive: PidProbe = (pid) => {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};
