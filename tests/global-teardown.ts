import { writeReport } from '../visual/report.ts';

/** Gathers the visual scenes' results into visual/output/report.html. */
export default async function globalTeardown(): Promise<void> {
  const path = writeReport();
  if (path) console.log(`Visual report: ${path}`);
}
