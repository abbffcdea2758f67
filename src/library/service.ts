/**
 * The Library service of one process: its limits, test hooks and the lock
 * that serializes imports and vault creation in this process (across
 * processes the vault's lock file does). Built once per Context.
 */
import type { Context } from '../context.js';
import { catalogOf, type Catalog, type VaultRow } from './repo.js';
import { DEFAULT_LIMITS, type LibraryLimits } from './limits.js';
import { createMutex, type Mutex } from './mutex.js';
import { vaultMismatch, vaultNotConfigured } from './reasons.js';

/** Points where tests stop an import the way a crash or a failing disk would. */
export interface ImportHooks {
  /** After the temporary copy is written and synced, before it is published. */
  afterTemp?: () => void | Promise<void>;
  /** After the bytes are published under files/, before the catalog commit. */
  beforeCommit?: () => void | Promise<void>;
}

export interface LibraryOptions {
  limits?: Partial<LibraryLimits>;
  hooks?: ImportHooks;
}

export interface Library {
  ctx: Context;
  limits: LibraryLimits;
  hooks: ImportHooks;
  writer: Mutex;
  catalog(): Catalog;
}

const KEY = 'library';

function build(ctx: Context, options: LibraryOptions): Library {
  return {
    ctx,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    hooks: options.hooks ?? {},
    writer: createMutex(),
    catalog: () => catalogOf(ctx.db),
  };
}

/**
 * Set limits or hooks for this Context (tests, benchmarks). Call it before
 * anything else uses the Library; later it answers the service already built.
 */
export function configureLibrary(ctx: Context, options: LibraryOptions): Library {
  return ctx.service(KEY, () => build(ctx, options));
}

export function libraryOf(ctx: Context): Library {
  return ctx.service(KEY, () => build(ctx, {}));
}

/** The configured vault, refusing when there is none or the caller expects another. */
export function requireVault(lib: Library, expectedVaultId?: string): VaultRow {
  const vault = lib.catalog().vault();
  if (!vault) throw vaultNotConfigured();
  if (expectedVaultId !== undefined && expectedVaultId !== vault.vault_id) throw vaultMismatch(vault.vault_id);
  return vault;
}
