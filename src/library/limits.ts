/**
 * The Library's limits (spec 2 "Limits"). Services take them from the Library
 * service object, so tests can shrink the 1 GiB and 10,000-item limits.
 */
import type { PublicLimits } from '../wire/library.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export interface LibraryLimits {
  /** Bytes of one imported file. */
  fileBytes: number;
  /** Files in one import selection (the CLI's `import <files…>`). */
  selectionFiles: number;
  /** Retained bytes of one vault. */
  vaultBytes: number;
  /** Catalog items (files) of one vault. */
  catalogItems: number;
  /** Original bytes a text read accepts. */
  textBytes: number;
  /** Logical lines a text read accepts. */
  textLines: number;
  /** Serialized JSON of the text envelope. */
  textJsonBytes: number;
  /** Serialized JSON of the inventory export envelope. */
  inventoryBytes: number;
  listDefault: number;
  listMax: number;
  /** Streamed JSON request bodies. */
  jsonBodyBytes: number;
  /** parent_directory of POST /api/library/vault, in characters. */
  parentChars: number;
  /** Display basenames, in characters. */
  nameChars: number;
}

export const DEFAULT_LIMITS: Readonly<LibraryLimits> = Object.freeze({
  fileBytes: 64 * MiB,
  selectionFiles: 20,
  vaultBytes: 1024 * MiB,
  catalogItems: 10_000,
  textBytes: 256 * KiB,
  textLines: 5_000,
  textJsonBytes: 2 * MiB,
  inventoryBytes: 8 * MiB,
  listDefault: 50,
  listMax: 100,
  jsonBodyBytes: 256 * KiB,
  parentChars: 4096,
  nameChars: 255,
});

/** The limits as the status and inventory envelopes state them. */
export function publicLimits(l: LibraryLimits): PublicLimits {
  return {
    file_bytes: l.fileBytes,
    selection_files: l.selectionFiles,
    vault_bytes: l.vaultBytes,
    catalog_items: l.catalogItems,
    text_bytes: l.textBytes,
    text_lines: l.textLines,
    text_json_bytes: l.textJsonBytes,
    inventory_bytes: l.inventoryBytes,
    list_limit_max: l.listMax,
    list_limit_default: l.listDefault,
  };
}
