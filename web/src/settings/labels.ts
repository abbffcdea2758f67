/** How each setting is called on the Settings page; the sentence under it is the service's own (`keys[…].doc`). */
export const LABELS: Record<string, Record<string, string>> = {
  ai: { provider: 'Provider', model: 'Model', base_url: 'Custom endpoint', summaries_enabled: 'Write AI summaries into reports', max_output_tokens: 'Most tokens per answer' },
  email: { smtp_host: 'Mail server', smtp_port: 'Port', smtp_secure: 'TLS from the first byte', smtp_username: 'User name', from_address: 'Sender address', to_address: 'Default recipient', contact_email: 'Contact e-mail (polite pools)' },
  embeddings: { provider: 'Embedding lane', model: 'Model', base_url: 'Endpoint', batch_size: 'Documents per request', embed_after_runs: 'Embed new papers after each run' },
  cloud: { provider: 'Backup target', url: 'WebDAV address', username: 'User name', remote_folder: 'Remote folder' },
  storage: { reports_dir: 'Reports folder', keep_execution_logs_days: 'Keep run logs (days)', default_reference_format: 'Default reference format' },
  notifications: { desktop_enabled: 'Desktop notifications from the window', on_complete: 'When a run completes', on_failure: 'When a run fails or a routine misses a fire' },
  assistant: { assistant_runtime: 'Runs through', assistant_model: 'Default model', assistant_effort: 'Default effort' },
  execution: { max_concurrent_executions: 'Runs at once', routine_fire_queue_limit: 'Routine fires that may wait' },
};

export const GROUP_TITLES: Record<string, string> = {
  ai: 'AI',
  email: 'E-mail',
  embeddings: 'Embeddings',
  cloud: 'Cloud backup',
  storage: 'Storage',
  notifications: 'Notifications',
  assistant: 'Assistant',
  execution: 'Runs',
};
