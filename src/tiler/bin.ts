import { main } from './cli.ts';

/** The `pinmap-tile-pins` executable: runs the command line with the process's arguments. */
process.exitCode = await main(process.argv.slice(2));
