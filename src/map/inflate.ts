/** The compressed bytes handed to the inflater at a time: at most about 4 MB inflated each (deflate's ratio is at most 1032). */
const SLICE = 4096;

/** Gzipped data inflates to more than the limit it was read within. */
export class InflateLimitError extends RangeError {
  override name = 'InflateLimitError';
}

/**
 * Gzipped bytes, inflated as a stream that stops as soon as more than `limit` bytes came out (an
 * `InflateLimitError`): the compressed bytes are fed a slice at a time, so a gzip bomb costs the
 * page about `limit` bytes of memory, not what it would inflate to. Data that is not gzip rejects
 * with the stream's own error.
 */
export async function inflateWithin(data: ArrayBuffer | Uint8Array, limit: number): Promise<Uint8Array> {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  let at = 0;
  const input = new ReadableStream<BufferSource>(
    {
      pull(controller) {
        if (at >= bytes.byteLength) return controller.close();
        controller.enqueue(bytes.slice(at, at + SLICE));
        at += SLICE;
      },
    },
    { highWaterMark: 0 },
  );
  const reader = input.pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks: Uint8Array[] = [];
  let inflated = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    inflated += value.byteLength;
    if (inflated > limit) {
      await reader.cancel().catch(() => {});
      throw new InflateLimitError(`it inflates to more than ${limit} bytes`);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(inflated);
  let to = 0;
  for (const chunk of chunks) {
    out.set(chunk, to);
    to += chunk.byteLength;
  }
  return out;
}
