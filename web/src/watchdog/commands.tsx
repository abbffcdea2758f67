/** The service's what-to-do sentences name commands between backticks: shown as code, the rest as text. */
export function WithCode({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
