/**
 * GitHub-flavoured Markdown tables and inline text. Cells come from contender names and error
 * messages, so they are escaped: a `|` would split the cell, a newline would end the row.
 */

/** Column alignment: text left, figures right (so digits line up). */
export type Alignment = 'left' | 'right';

export interface TableColumn {
  readonly title: string;
  readonly align: Alignment;
}

/**
 * Text that renders as itself inline: line breaks and runs of whitespace folded into one space, and
 * the characters that would start markup (`<x>` would be taken for an HTML tag, `&lt;` for an entity, `*` for emphasis,
 * `|` would split a table cell) escaped with a backslash.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>&|]/g, (char) => `\\${char}`);
}

/** The table's lines joined with newlines (no trailing newline). */
export function markdownTable(columns: readonly TableColumn[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(escapeMarkdown).join(' | ')} |`;
  const rule = `| ${columns.map((column) => (column.align === 'right' ? '---:' : '---')).join(' | ')} |`;
  return [line(columns.map((column) => column.title)), rule, ...rows.map(line)].join('\n');
}
