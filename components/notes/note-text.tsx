import { linkPieces } from '@/lib/api/annotations';

/** A note's text as text (never HTML), its line breaks kept and its http(s) links made clickable. */
export function NoteText({ text }: { text: string }) {
  return (
    <p className="whitespace-pre-wrap break-words text-sm">
      {linkPieces(text).map((piece, i) =>
        'href' in piece ? (
          <a
            key={i}
            href={piece.href}
            rel="noopener noreferrer nofollow"
            target="_blank"
            className="text-sky-800 underline underline-offset-2 dark:text-sky-300"
          >
            {piece.text}
          </a>
        ) : (
          <span key={i}>{piece.text}</span>
        ),
      )}
    </p>
  );
}
