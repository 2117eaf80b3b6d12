/**
 * Go's text/tabwriter as kubectl sets it up (padding 2, spaces): cells end at a tab, and a cell is
 * padded to the widest cell of its column among the consecutive lines that have that column. The last
 * cell of a line is not part of any column and is never padded.
 */
const PADDING = 2;

export function tabulate(lines: readonly string[]): string {
  const rows = lines.map((line) => line.split('\t'));
  const widths = rows.map((cells) => cells.map((cell) => cell.length));
  const columns = Math.max(0, ...rows.map((cells) => cells.length - 1));
  for (let column = 0; column < columns; column++) {
    alignColumn(rows, widths, column);
  }
  return rows
    .map((cells, row) =>
      cells
        .map((cell, column) => (column < cells.length - 1 ? cell.padEnd(widths[row]?.[column] ?? 0) : cell))
        .join(''),
    )
    .join('\n');
}

/** Sets the width of `column` in each run of consecutive lines where it ends at a tab. */
function alignColumn(rows: readonly (readonly string[])[], widths: number[][], column: number): void {
  const inColumn = (row: number): boolean => (rows[row]?.length ?? 0) - 1 > column;
  let start = 0;
  while (start < rows.length) {
    if (!inColumn(start)) {
      start++;
      continue;
    }
    let end = start;
    while (end < rows.length && inColumn(end)) {
      end++;
    }
    const width = Math.max(...rows.slice(start, end).map((cells) => cells[column]?.length ?? 0)) + PADDING;
    for (let row = start; row < end; row++) {
      const rowWidths = widths[row];
      if (rowWidths !== undefined) {
        rowWidths[column] = width;
      }
    }
    start = end;
  }
}
