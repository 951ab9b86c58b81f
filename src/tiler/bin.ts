import { main } from './cli.ts';
import { abandonOpenWriters } from './pmtiles-writer.ts';

/** The `pinmap-tile-pins` executable: runs the command line with the process's arguments. */
// Stopped (Ctrl-C, a time limit): the temporary tile file goes with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    abandonOpenWriters();
    process.exit(130);
  });
}
process.exitCode = await main(process.argv.slice(2));
