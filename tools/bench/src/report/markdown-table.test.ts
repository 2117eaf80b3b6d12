import { describe, expect, it } from 'vitest';

import { escapeMarkdown, markdownTable } from './markdown-table.ts';

describe('escapeMarkdown', () => {
  it.each([
    { text: 'plain pods/status 1.5 (2.00×)', escaped: 'plain pods/status 1.5 (2.00×)' },
    { text: 'a|b', escaped: 'a\\|b' },
    { text: '<x&y>', escaped: '\\<x\\&y\\>' },
    { text: '*a* _b_ `c` [d] \\e', escaped: '\\*a\\* \\_b\\_ \\`c\\` \\[d\\] \\\\e' },
    { text: ' two\nlines\r\n and  tabs\t', escaped: 'two lines and tabs' },
    { text: '', escaped: '' },
  ])('$text ⇒ $escaped', ({ text, escaped }) => {
    expect(escapeMarkdown(text)).toBe(escaped);
  });
});

describe('markdownTable', () => {
  it('renders a header, an alignment rule and escaped rows', () => {
    const table = markdownTable(
      [
        { title: 'name', align: 'left' },
        { title: 'count', align: 'right' },
      ],
      [
        ['a|b', '1'],
        ['c', '22'],
      ],
    );
    expect(table).toBe(['| name | count |', '| --- | ---: |', '| a\\|b | 1 |', '| c | 22 |'].join('\n'));
  });

  it('renders only the header of a table without rows', () => {
    expect(markdownTable([{ title: 'x', align: 'left' }], [])).toBe('| x |\n| --- |');
  });
});
