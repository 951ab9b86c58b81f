import { describe, expect, it } from 'vitest';
import { ARCHIVE_SEARCH, POSTING_BITS, archiveHits, blockSpan, fieldBit, isCommon, lookupWord, postingRecord, topsBlockOf, wordsToLookUp, type SearchPosting, type WordLookup } from './archive-search.ts';

const posting = (bits: number, id: string, title: string, look = 0, line = ''): SearchPosting => [bits, id, title, look, line];
const complete = (...postings: SearchPosting[]): WordLookup => ({ postings, complete: true, total: new Set(postings.map((p) => p[1])).size });
const options = { fields: [] as string[], categoryOf: (look: number) => ['cafe', 'museum'][look], hidden: new Set<string>(), limit: 8 };

describe('the archive search index', () => {
  it('finds the blocks whose words may begin with a prefix from their first words, a word of many pins filling several', () => {
    const firsts = ['a', 'berlin', 'pin', 'pin', 'pin', 'pine', 'zurich'];
    expect(blockSpan(firsts, 'b')).toEqual([0, 1]);
    expect(blockSpan(firsts, 'pin')).toEqual([1, 5]);
    expect(blockSpan(firsts, 'pine')).toEqual([4, 5]);
    expect(blockSpan(firsts, 'zz')).toEqual([6, 6]);
    expect(blockSpan(firsts, '0')).toEqual([0, -1]);
    expect(isCommon(firsts, 'pin')).toBe(5 > ARCHIVE_SEARCH.maxBlocks);
    expect(isCommon(firsts, 'pine')).toBe(false);
    expect(blockSpan([], 'a')).toEqual([0, -1]);
  });

  it('finds the tops block of a prefix: the last whose first prefix is not after it', () => {
    const tops = ['a', 'e', 'pi'];
    expect(topsBlockOf(tops, 'a')).toBe(0);
    expect(topsBlockOf(tops, 'b')).toBe(0);
    expect(topsBlockOf(tops, 'pi')).toBe(2);
    expect(topsBlockOf(tops, 'p')).toBe(1);
    expect(topsBlockOf(tops, '0')).toBe(-1);
  });

  it('looks up the word of fewest blocks, the longest of those', () => {
    const firsts = ['a', 'a', 'a', 'b', 'pin', 'q'];
    expect(lookupWord(['a', 'pin'], firsts)).toBe('pin');
    expect(lookupWord(['pi', 'pin'], firsts)).toBe('pin');
    expect(lookupWord(['', 'x'], firsts)).toBe('x');
  });

  it('keeps of a pin its id, its title and its description\'s first line, cut', () => {
    const long = 'x'.repeat(500);
    const [id, title, look, line] = postingRecord({ id: 'p', title: long, description: `first line\nsecond` }, 3);
    expect([id, look, line]).toEqual(['p', 3, 'first line']);
    expect(title).toHaveLength(ARCHIVE_SEARCH.titleLength);
    expect(title.endsWith('…')).toBe(true);
  });
});

describe('archiveHits', () => {
  const zurich = posting(POSTING_BITS.titleFirst, 'zh', 'Zürich', 0, 'Largest city');
  const zugerberg = posting(POSTING_BITS.titleFirst, 'zg', 'Zugerberg', 1);
  const oldZurich = posting(POSTING_BITS.inTitle, 'old', 'Old Zurich Hotel', 0);
  const inDescription = posting(fieldBit(0), 'desc', 'Bern', 1, 'Near Zurich');

  it('ranks as the inline search: the title starts with the query, then a word of it, then a field; then by title', () => {
    const result = archiveHits('zu', 'zu', new Map([['zu', complete(inDescription, oldZurich, zurich, zugerberg)]]), { ...options, fields: ['description'] });
    expect(result.hits.map((hit) => [hit.pin.id, hit.field])).toEqual([
      ['zg', 'title'],
      ['zh', 'title'],
      ['old', 'title'],
      ['desc', 'description'],
    ]);
    expect(result).toMatchObject({ total: 4, exact: true });
    expect(result.hits[1]!.pin).toEqual({ id: 'zh', title: 'Zürich', description: 'Largest city', category: 'cafe' });
  });

  it('needs every word: in the title, or beginning a word the index found for the pin', () => {
    const lookups = new Map([
      ['zurich', complete(zurich, oldZurich, inDescription)],
      ['near', complete(posting(fieldBit(0), 'desc', 'Bern', 1))],
    ]);
    expect(archiveHits('zurich hotel', 'zurich', lookups, options).hits.map((hit) => hit.pin.id)).toEqual(['old']);
    expect(archiveHits('near zurich', 'zurich', lookups, { ...options, fields: ['description'] }).hits.map((hit) => hit.pin.id)).toEqual(['desc']);
  });

  it('asks for the other words only where a candidate\'s title (or searched description\'s first line) lacks them, and never for an index of titles only', () => {
    const lookup = complete(zurich, inDescription);
    expect(wordsToLookUp(['zurich', 'near'], 'zurich', lookup, { ...options, fields: ['description'] })).toEqual(['near']);
    expect(wordsToLookUp(['zurich', 'zu'], 'zurich', lookup, { ...options, fields: ['description'] })).toEqual([]);
    expect(wordsToLookUp(['zurich', 'zu'], 'zurich', lookup, { ...options, fields: ['canton'] })).toEqual(['zu']);
    expect(wordsToLookUp(['zurich', 'near'], 'zurich', complete(zurich), { ...options, fields: ['description'] })).toEqual(['near']);
    expect(wordsToLookUp(['zurich', 'near'], 'zurich', lookup, options)).toEqual([]);
  });

  it('leaves out hidden categories and keeps to the limit, counting every match', () => {
    const lookup = complete(zurich, zugerberg, oldZurich);
    expect(archiveHits('z', 'z', new Map([['z', lookup]]), { ...options, hidden: new Set(['museum']) }).hits.map((hit) => hit.pin.id)).toEqual(['zh', 'old']);
    expect(archiveHits('z', 'z', new Map([['z', lookup]]), { ...options, limit: 1 })).toMatchObject({ total: 3, hits: [{ pin: { id: 'zg' } }] });
  });

  it('counts a common word alone as the index counted it; with another word, says the count is at least what it found', () => {
    const common: WordLookup = { postings: [zurich, zugerberg], complete: false, total: 5000 };
    expect(archiveHits('z', 'z', new Map([['z', common]]), options)).toMatchObject({ total: 5000, exact: true });
    expect(archiveHits('z', 'z', new Map([['z', common]]), { ...options, hidden: new Set(['cafe']) })).toMatchObject({ total: 1, exact: false });
    expect(archiveHits('z zug', 'z', new Map([['z', common]]), options)).toMatchObject({ total: 1, exact: false });
  });

  it('finds nothing for a blank query, and each pin once when two of its words begin with the query', () => {
    expect(archiveHits('  ', 'x', new Map(), options)).toEqual({ hits: [], total: 0, exact: true });
    const twice = complete(posting(POSTING_BITS.titleFirst, 'pp', 'Pine pines'), posting(POSTING_BITS.inTitle, 'pp', 'Pine pines'));
    expect(archiveHits('pin', 'pin', new Map([['pin', twice]]), options)).toMatchObject({ total: 1, hits: [{ pin: { id: 'pp' } }] });
  });
});
