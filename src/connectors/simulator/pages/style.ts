/**
 * The one stylesheet, inlined under the page's CSP nonce: no external assets. Large touch targets
 * (at least 44 px), a visible focus ring, system fonts, and colours with at least 4.5:1 contrast.
 */
export const PAGE_STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:100%;line-height:1.5;color:#1a1a1a;background:#f2f4f7}
body{margin:0;padding:0 0 2rem}
.test-banner{margin:0 0 1.5rem;padding:.75rem 1rem;background:#fff3bf;color:#4a3500;border-bottom:3px solid #e0a800;text-align:center;font-size:.95rem}
main{max-width:30rem;margin:0 auto;padding:1.5rem 1.25rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
@media (max-width:32rem){main{margin:0 .75rem}}
h1{margin:0 0 .75rem;font-size:1.5rem;line-height:1.25}
.provider h1{color:#0b3d91}
.bank h1{color:#14532d}
p{margin:0 0 1rem}
main>:last-child{margin-bottom:0}
.details{margin:0 0 1.25rem;padding:1rem;border:1px solid #d0d5dd;border-radius:.5rem;background:#f9fafb}
.details div{display:flex;justify-content:space-between;gap:1rem;padding:.25rem 0}
.details dt{color:#475467}
.details dd{margin:0;font-weight:600;text-align:end;overflow-wrap:anywhere}
.note{color:#475467;font-size:.95rem}
fieldset{margin:0;padding:0;border:0}
legend{margin:0 0 .75rem;padding:0;font-weight:600}
.actions{display:flex;flex-direction:column;gap:.75rem}
button{display:block;width:100%;min-height:2.75rem;padding:.75rem 1rem;border:2px solid transparent;border-radius:.5rem;font:inherit;font-weight:600;cursor:pointer}
button.primary{background:#0b5cd5;color:#fff}
.bank button.primary{background:#15803d}
button.secondary{background:#fff;color:#1d2939;border-color:#98a2b3}
button.danger{background:#fff;color:#b42318;border-color:#b42318}
button:hover{filter:brightness(.95)}
button:focus-visible{outline:3px solid #1a1a1a;outline-offset:3px;box-shadow:0 0 0 6px #fff}
@media (prefers-reduced-motion:no-preference){button{transition:filter .1s}}
@media (forced-colors:active){button{border-color:ButtonText}}
`;
