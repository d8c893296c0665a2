/** Child row keys: the item's own id when it has one, else its position among its parent's rows. */
import { describe, expect, it } from 'vitest';
import { childKeys, itemIdIndex } from '../../../src/core/sheets/child-sheet';

describe('child row keys', () => {
  it('uses the item id when the first item field is an id', () => {
    const cols = [
      { key: 'idFatura', label: 'ID', cell: 'integer' as const },
      { key: 'idItemFatura', label: 'Item', cell: 'integer' as const },
    ];
    expect(itemIdIndex(cols)).toBe(1);
    expect(
      childKeys(
        [
          [7, 70],
          [8, 80],
          [7, 71],
        ],
        1,
      ),
    ).toEqual(['7#70', '8#80', '7#71']);
  });

  it('falls back to the position among the same parent, in sheet order', () => {
    const cols = [
      { key: 'idAssinaturaContrato', label: 'ID', cell: 'integer' as const },
      { key: 'descricao', label: 'Descrição', cell: 'text' as const },
    ];
    expect(itemIdIndex(cols)).toBeNull();
    expect(
      childKeys(
        [
          [7, 'a'],
          [8, 'b'],
          [7, 'c'],
        ],
        null,
      ),
    ).toEqual(['7@1', '8@1', '7@2']);
    // An item without its id (an empty cell) takes its position instead.
    expect(
      childKeys(
        [
          [7, ''],
          [7, 71],
        ],
        1,
      ),
    ).toEqual(['7@1', '7#71']);
  });
});
