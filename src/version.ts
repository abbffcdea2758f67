import fs from 'node:fs';

/** The release label, read once from package.json next to the compiled tree. */
let cached: string | undefined;
export function svcVersion(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    cached = String(pkg.version);
  }
  return cached;
}
