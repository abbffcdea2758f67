/**
 * What a bundle's database says about the secrets a restore cannot bring back.
 * A bundle never holds secrets, and a restore never touches the credentials
 * file (it lives in the state directory), so after a restore the keys stored
 * here are the keys there are: the restore names exactly those its settings
 * use that are missing, instead of telling everyone to store every key again,
 * and speaks of webhook secrets only when there are webhook destinations.
 */
import type { Database } from 'better-sqlite3';
import { API_PROVIDERS } from '../../providers/provider-catalog.js';

function setting(db: Database, group: string, key: string): unknown {
  try {
    const row = db.prepare('SELECT value_json FROM settings WHERE group_name = ? AND key = ?').get(group, key) as { value_json: string } | undefined;
    return row ? JSON.parse(row.value_json) : undefined;
  } catch {
    return undefined; // an unreadable value is the default: nothing expected
  }
}

/** Credential names the settings in `db` rely on (the AI provider's key, the mail and cloud passwords, the OpenAI embeddings key). */
export function credentialsTheSettingsUse(db: Database): string[] {
  const names = new Set<string>();
  const aiProvider = setting(db, 'ai', 'provider');
  const ai = API_PROVIDERS.find((p) => p.id === aiProvider);
  if (ai) names.add(ai.credential);
  const smtpUser = setting(db, 'email', 'smtp_username');
  if (typeof smtpUser === 'string' && smtpUser !== '') names.add('smtp_password');
  if (setting(db, 'cloud', 'provider') === 'webdav') names.add('cloud_password');
  const embeddings = setting(db, 'embeddings', 'provider');
  const embeddingsUrl = setting(db, 'embeddings', 'base_url');
  if (embeddings === 'openai' && !embeddingsUrl) names.add('openai_api_key');
  return [...names].sort();
}

/** Webhook destinations in `db` (each gets a new signing secret when restored); 0 for a schema without them. */
export function webhookDestinations(db: Database): number {
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM delivery_targets WHERE channel = 'webhook'").get() as { n: number }).n;
  } catch {
    return 0;
  }
}

export interface BundleSecretsFacts {
  credentialsUsed: string[];
  webhookDestinations: number;
}

export const secretsFacts = (db: Database): BundleSecretsFacts => ({ credentialsUsed: credentialsTheSettingsUse(db), webhookDestinations: webhookDestinations(db) });
