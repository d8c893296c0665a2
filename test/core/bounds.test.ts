import { describe, expect, it } from 'vitest';
import { bounded, CELL_TEXT_MAX, MESSAGE_MAX } from '../../src/core/bounds';

describe('outside text bounded before it is stored', () => {
  it("keeps Google's cell limit and the message limit", () => {
    expect(CELL_TEXT_MAX).toBe(50_000);
    expect(MESSAGE_MAX).toBe(2_000);
  });

  it('leaves text that fits, up to exactly the limit', () => {
    expect(bounded('abcde', 5)).toBe('abcde');
    expect(bounded('abcde', 5, 'veja o Histórico')).toBe('abcde');
  });

  it('cuts longer text to the limit, ending in an ellipsis', () => {
    expect(bounded('abcdef', 5)).toBe('abcd…');
    expect(bounded('x'.repeat(12_000), MESSAGE_MAX)).toHaveLength(MESSAGE_MAX);
  });

  it('says where the rest can be seen, within the limit', () => {
    const out = bounded('a'.repeat(100), 30, 'veja o Histórico');
    expect(out).toBe(`${'a'.repeat(10)}… (veja o Histórico)`);
    expect(out).toHaveLength(30);
  });

  it('a limit smaller than the tail leaves only the tail', () => {
    expect(bounded('abcdefghij', 3, 'resto')).toBe('… (resto)');
  });
});
