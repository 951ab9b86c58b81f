import { abandonOpenWriters } from '../tiler/pmtiles-writer.ts';
import { main } from './main.ts';

/** The `pinmap` executable: runs the command line with the process's arguments. */
// Stopped (Ctrl-C, a time limit): a tiling's temporary file goes with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    abandonOpenWriters();
    process.exit(130);
  });
}
process.exitCode = await main(process.argv.slice(2));
