/**
 * The simulated provider and ACS pages, as pure render functions: the routes that serve them
 * (with `Content-Security-Policy: default-src 'none'; style-src 'nonce-…'; form-action …`) live
 * with the redirect core. Every page is a complete HTML document without script or external
 * assets, and each outcome is a submit button named `outcome`.
 */
export { renderChallengePage, CHALLENGE_PAGE_OUTCOMES, type ChallengeOutcome, type ChallengePageInput } from './challenge-page.js';
export { renderEndedPage, type EndedPageInput, type EndedReason } from './ended-page.js';
export { escapeHtml, type HiddenField } from './html.js';
export { formatAmount } from './layout.js';
export { PAGE_LOCALES, pickLocale, type PageLocale, type SupportedLocale } from './locale.js';
export { MESSAGES, type PageMessages } from './messages.js';
export { renderProviderPage, PROVIDER_OUTCOMES, type ProviderOutcome, type ProviderPageInput } from './provider-page.js';
