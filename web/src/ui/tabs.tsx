/**
 * Tabs whose choice lives in the address (?tab=…), so a tab can be reloaded
 * and linked: a tablist where ←/→ (and Home/End) move between tabs, as the
 * WAI-ARIA tabs pattern has it, and the panel of the chosen one.
 */
import type { ComponentChildren } from 'preact';
import { href, navigate, place } from '../router.js';

export interface Tab {
  id: string;
  label: string;
  badge?: string | number;
}

export function Tabs({ tabs, label, children, param = 'tab' }: { tabs: Tab[]; label: string; param?: string; children: (current: string) => ComponentChildren }) {
  const asked = place.value.query.get(param);
  const current = tabs.some((t) => t.id === asked) ? asked! : tabs[0]!.id;
  const choose = (id: string, focus = false) => {
    const query = Object.fromEntries([...place.value.query].filter(([k]) => k !== param));
    navigate(href(place.value.path, { ...query, [param]: id === tabs[0]!.id ? undefined : id }), { replace: true });
    if (focus) requestAnimationFrame(() => document.getElementById(`tab-${id}`)?.focus());
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === current);
    const next = event.key === 'ArrowRight' ? (at + 1) % tabs.length : event.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length : event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : -1;
    if (next === -1) return;
    event.preventDefault();
    choose(tabs[next]!.id, true);
  };
  return (
    <div class="tabs">
      <div role="tablist" aria-label={label} class="tablist" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            class="tab"
            aria-selected={t.id === current}
            aria-controls={`panel-${t.id}`}
            tabIndex={t.id === current ? 0 : -1}
            onClick={() => choose(t.id)}
          >
            {t.label}
            {t.badge !== undefined && <span class="badge">{t.badge}</span>}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${current}`} aria-labelledby={`tab-${current}`} class="tabpanel" tabIndex={0}>
        {children(current)}
      </div>
    </div>
  );
}
