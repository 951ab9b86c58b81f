import type { ConfigProblem } from '../config/schema.ts';

/** A message the user must read, over the map or in its place, with an optional retry. */
export function ErrorPanel({ title, message, problems, onRetry }: {
  title: string;
  message?: string | undefined;
  problems?: ConfigProblem[] | undefined;
  onRetry?: (() => void) | undefined;
}) {
  return (
    <div className="pinmap-error" role="alert">
      <h2 className="pinmap-error-title">{title}</h2>
      {message && <p className="pinmap-error-message">{message}</p>}
      {problems && problems.length > 0 && (
        <ul className="pinmap-error-problems">
          {problems.map((p, i) => (
            <li key={i}>
              <code>{p.option}</code> {p.message}
            </li>
          ))}
        </ul>
      )}
      {onRetry && (
        <button type="button" className="pinmap-error-retry" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
