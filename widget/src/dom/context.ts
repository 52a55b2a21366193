import type { WidgetLabels } from '../i18n/index.js';
import type { WidgetLocale } from '../rules/locale.js';
import type { CheckoutPurpose } from '../rules/action-url.js';
import type { RedirectTarget } from '../rules/redirect-target.js';
import type { ColorScheme } from '../rules/style-values.js';

/** A stored card of the checkout, as GET /v1/checkouts/{id}/widget lists it. */
export interface StoredCard {
  readonly id: string;
  readonly brand: string;
  readonly last4Digits: string;
  readonly expiryMonth: string;
  readonly expiryYear: string;
  readonly holder?: string;
}

export interface Bootstrap {
  readonly id: string;
  readonly amount: string;
  readonly currency: string;
  readonly paymentType: string;
  /** 'registration': the widget posts to …/registration and nothing is charged. */
  readonly purpose?: CheckoutPurpose;
  readonly state: string;
  readonly registrations: readonly StoredCard[];
  /** Brands the gateway's risk engine does not offer this shopper (docs/risk.md). */
  readonly hiddenBrands?: readonly string[];
  /** The origin of the checkout's own shopperResultUrl, when the merchant's server set one. */
  readonly shopperResultOrigin?: string;
  /** The shopper's country from the checkout's billing (else shipping) address: two letters, when known. */
  readonly shopperCountry?: string;
  /** The wallet brands whose simulated sheet the gateway serves (the test system only; rules/wallets.ts). */
  readonly wallets?: readonly string[];
}

export type WidgetStyle = 'card' | 'plain' | 'logos' | 'none';
/** wpwlOptions.layout: OPPWA's form per brand group ('forms', the default), or one widget with the methods as tabs or an accordion. */
export type WidgetLayout = 'forms' | 'tabs' | 'accordion';

/** What every form of one page shares. */
export interface WidgetContext {
  /** The gateway's API base with its version, ending in a slash: 'https://gateway.example/v1/'. */
  readonly base: string;
  readonly gatewayOrigin: string;
  readonly checkoutId: string;
  /** Where the widget posts: the checkout's payment or its registration (from the bootstrap). */
  readonly purpose: CheckoutPurpose;
  readonly locale: WidgetLocale;
  /** The locale as the merchant asked for it ('de-AT'), for a region. */
  readonly requestedLocale: string | undefined;
  readonly labels: WidgetLabels;
  readonly style: WidgetStyle;
  readonly layout: WidgetLayout;
  readonly autofocus: string | undefined;
  readonly numberFormatting: boolean;
  readonly onBeforeSubmitCard: ((form: HTMLFormElement) => unknown) | undefined;
  readonly now: () => Date;
  /** wpwlOptions.redirectTarget: 'overlay' shows provider and 3-D Secure pages over the page. */
  readonly redirectTarget: RedirectTarget;
  /** wpwlOptions.colorScheme, or the shopper's preference ('auto', the default), decided when the widget is drawn. */
  readonly colorScheme: ColorScheme;
  /** wpwlOptions.theme as CSS variables (checked values only), set on the container. */
  readonly theme: readonly (readonly [string, string])[];
  /** wpwlOptions.amountOnButton, unless the merchant's own `submit` label says otherwise. */
  readonly amountOnButton: boolean;
  /** Where the shopper returns when the merchant's server set shopperResultUrl (from the bootstrap). */
  readonly resultOrigin?: string | undefined;
  /** The shopper's country as the checkout knows it (from the bootstrap), for the bank country. */
  readonly shopperCountry?: string | undefined;
}
