/** esbuild's text loader: a .css file imported as its text (scripts/widget-build.mjs). */
declare module '*.css' {
  const text: string;
  export default text;
}
