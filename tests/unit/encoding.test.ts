// Which compression a client gets, from its Accept-Encoding header.
import { describe, expect, it } from 'vitest';
import { encodingFor } from '#server/http/encoding.ts';

describe('encodingFor', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=1.0, gzip;q=0.8', 'br'],
    ['gzip;q=0, br;q=0', null],
    ['*', 'br'],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, *;q=0.5', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', null],
  ] as const)('%j -> %s', (header, expected) => {
    expect(encodingFor(header)).toBe(expected);
  });
});
