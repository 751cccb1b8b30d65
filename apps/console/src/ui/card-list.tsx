import { type ReactNode, useId } from 'react';

/** One line of a card's facts: a term and what it is. */
export interface CardFact {
  label: ReactNode;
  value: ReactNode;
  /** Long values (addresses, ids) may break anywhere. */
  wrap?: boolean;
}

/**
 * A list of cards, one per item, each named by its heading: its facts as a description list,
 * then whatever else it holds (actions, a form). `items` null is still loading; an empty list
 * says `empty`. Either may be left out to say nothing.
 */
export function CardList<T>({
  items,
  itemKey,
  heading,
  headingClassName,
  facts,
  children,
  loading,
  empty,
  label,
  ordered = false,
  className,
  level = 3,
}: {
  items: readonly T[] | null;
  itemKey: (item: T) => string;
  heading: (item: T) => ReactNode;
  headingClassName?: string;
  facts?: (item: T) => ReadonlyArray<CardFact | false>;
  children?: (item: T) => ReactNode;
  loading?: ReactNode;
  empty?: ReactNode;
  /** The list's own name (how many there are). */
  label?: string;
  ordered?: boolean;
  className?: string;
  level?: 2 | 3;
}) {
  const id = useId();
  if (items === null) return loading === undefined ? null : <p>{loading}</p>;
  if (items.length === 0) return empty === undefined ? null : <p>{empty}</p>;
  const List = ordered ? 'ol' : 'ul';
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <List className={className ? `cards ${className}` : 'cards'} aria-label={label}>
      {items.map((item, index) => {
        const headingId = `${id}-${index}`;
        const shown = facts?.(item).filter((fact) => fact !== false) ?? [];
        return (
          <li key={itemKey(item)} className="card" aria-labelledby={headingId}>
            <Heading id={headingId} className={headingClassName}>
              {heading(item)}
            </Heading>
            {shown.length > 0 && (
              <dl>
                {shown.map((fact, factIndex) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a card's facts keep their order
                  <div key={factIndex}>
                    <dt>{fact.label}</dt>
                    <dd className={fact.wrap ? 'wrap' : undefined}>{fact.value}</dd>
                  </div>
                ))}
              </dl>
            )}
            {children?.(item)}
          </li>
        );
      })}
    </List>
  );
}
