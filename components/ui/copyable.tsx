import { CopyButton } from './copy-button';

/** A value with its copy button beside it ("Copy id", "Copy reference", …). */
export function Copyable({ value, label, mono = true }: { value: string; label: string; mono?: boolean }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1">
      <span className={`wrap-anywhere ${mono ? 'font-mono text-xs' : ''}`}>{value}</span>
      <CopyButton value={value} label={label} />
    </span>
  );
}
