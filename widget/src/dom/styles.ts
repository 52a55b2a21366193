/**
 * The default look, unless `style: 'none'`. A constructed style sheet needs no `style-src` for
 * the gateway in the merchant's CSP and no extra request; its rules sit in the cascade layer
 * `wpwl`, and unlayered rules always beat layered ones, so the merchant's own CSS for the wpwl-
 * classes wins whatever its specificity or order.
 */

/** payment-widgets.css, minified and put in by the build (src/http/widget/widget-build.ts). */
declare const __WPWL_STYLES__: string;

export function adoptStyles(): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(__WPWL_STYLES__);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    // A browser without constructable style sheets shows the unstyled, still usable form.
  }
}
