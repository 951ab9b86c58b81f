declare module "*?url&no-inline" { const src: string; export default src; }
