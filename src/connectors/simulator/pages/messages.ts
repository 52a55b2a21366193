import type { SupportedLocale } from './locale.js';

/**
 * Every text of the simulator pages, per language. `{name}` placeholders are filled with escaped
 * values. A type with every key makes a language without all texts fail to compile.
 */
export interface PageMessages {
  readonly testBanner: string;
  readonly testBannerDetail: string;
  readonly merchant: string;
  readonly amount: string;
  readonly providerTitle: string;
  readonly providerIntro: string;
  readonly providerLegend: string;
  readonly approve: string;
  readonly decline: string;
  readonly cancelToShop: string;
  readonly challengeTitle: string;
  readonly challengeIntro: string;
  readonly challengeCodeNote: string;
  readonly card: string;
  readonly cardEnding: string;
  readonly challengeLegend: string;
  readonly authenticate: string;
  readonly authenticationFailed: string;
  readonly authenticationUnavailable: string;
  readonly issuerRejects: string;
  readonly cancel: string;
  readonly endedCompletedTitle: string;
  readonly endedCompletedText: string;
  readonly endedExpiredTitle: string;
  readonly endedExpiredText: string;
  readonly endedNotFoundTitle: string;
  readonly endedNotFoundText: string;
  /** The link back to the merchant's result page on a used or expired link. */
  readonly backToShop: string;
}

export const MESSAGES: Readonly<Record<SupportedLocale, PageMessages>> = Object.freeze({
  en: {
    testBanner: 'Test system',
    testBannerDetail: 'simulated page, no money moves.',
    merchant: 'Merchant',
    amount: 'Amount',
    providerTitle: 'Pay with {brand}',
    providerIntro: '{merchant} asks you to pay with {brand}.',
    providerLegend: 'Choose the outcome of this simulated payment',
    approve: 'Approve payment',
    decline: 'Decline payment',
    cancelToShop: 'Cancel and return to the shop',
    challengeTitle: 'Confirm your purchase',
    challengeIntro: 'Your bank asks you to confirm this card payment.',
    challengeCodeNote: 'A real bank would now ask for a one-time code. Here you choose the result of the authentication.',
    card: 'Card',
    cardEnding: 'ending in {last4}',
    challengeLegend: 'Choose the authentication result',
    authenticate: 'Authenticate (Y)',
    authenticationFailed: 'Fail authentication (N)',
    authenticationUnavailable: 'Authentication unavailable (U)',
    issuerRejects: 'Issuer rejects (R)',
    cancel: 'Cancel',
    endedCompletedTitle: 'This payment is already finished',
    endedCompletedText: 'This link worked once and cannot be used again. Return to the shop to see the result of your payment.',
    endedExpiredTitle: 'This payment link has expired',
    endedExpiredText: 'The payment was not completed in time. Return to the shop and start again.',
    endedNotFoundTitle: 'This payment link does not exist',
    endedNotFoundText: 'Check the link, or return to the shop and start again.',
    backToShop: 'Back to the shop',
  },
  de: {
    testBanner: 'Testsystem',
    testBannerDetail: 'simulierte Seite, es fließt kein Geld.',
    merchant: 'Händler',
    amount: 'Betrag',
    providerTitle: 'Mit {brand} bezahlen',
    providerIntro: '{merchant} bittet Sie, mit {brand} zu bezahlen.',
    providerLegend: 'Wählen Sie das Ergebnis dieser simulierten Zahlung',
    approve: 'Zahlung freigeben',
    decline: 'Zahlung ablehnen',
    cancelToShop: 'Abbrechen und zurück zum Shop',
    challengeTitle: 'Kauf bestätigen',
    challengeIntro: 'Ihre Bank bittet Sie, diese Kartenzahlung zu bestätigen.',
    challengeCodeNote: 'Eine echte Bank würde jetzt nach einem Einmalcode fragen. Hier wählen Sie das Ergebnis der Authentifizierung.',
    card: 'Karte',
    cardEnding: 'endet auf {last4}',
    challengeLegend: 'Wählen Sie das Ergebnis der Authentifizierung',
    authenticate: 'Authentifizieren (Y)',
    authenticationFailed: 'Authentifizierung fehlgeschlagen (N)',
    authenticationUnavailable: 'Authentifizierung nicht verfügbar (U)',
    issuerRejects: 'Bank lehnt ab (R)',
    cancel: 'Abbrechen',
    endedCompletedTitle: 'Diese Zahlung ist bereits abgeschlossen',
    endedCompletedText: 'Dieser Link funktioniert nur einmal. Kehren Sie zum Shop zurück, um das Ergebnis Ihrer Zahlung zu sehen.',
    endedExpiredTitle: 'Dieser Zahlungslink ist abgelaufen',
    endedExpiredText: 'Die Zahlung wurde nicht rechtzeitig abgeschlossen. Kehren Sie zum Shop zurück und beginnen Sie erneut.',
    endedNotFoundTitle: 'Diesen Zahlungslink gibt es nicht',
    endedNotFoundText: 'Prüfen Sie den Link oder kehren Sie zum Shop zurück und beginnen Sie erneut.',
    backToShop: 'Zurück zum Shop',
  },
  fr: {
    testBanner: 'Système de test',
    testBannerDetail: 'page simulée, aucun argent n’est transféré.',
    merchant: 'Commerçant',
    amount: 'Montant',
    providerTitle: 'Payer avec {brand}',
    providerIntro: '{merchant} vous demande de payer avec {brand}.',
    providerLegend: 'Choisissez le résultat de ce paiement simulé',
    approve: 'Approuver le paiement',
    decline: 'Refuser le paiement',
    cancelToShop: 'Annuler et retourner à la boutique',
    challengeTitle: 'Confirmez votre achat',
    challengeIntro: 'Votre banque vous demande de confirmer ce paiement par carte.',
    challengeCodeNote: 'Une vraie banque vous demanderait maintenant un code à usage unique. Ici, vous choisissez le résultat de l’authentification.',
    card: 'Carte',
    cardEnding: 'se terminant par {last4}',
    challengeLegend: 'Choisissez le résultat de l’authentification',
    authenticate: 'Authentifier (Y)',
    authenticationFailed: 'Échec de l’authentification (N)',
    authenticationUnavailable: 'Authentification indisponible (U)',
    issuerRejects: 'La banque refuse (R)',
    cancel: 'Annuler',
    endedCompletedTitle: 'Ce paiement est déjà terminé',
    endedCompletedText: 'Ce lien ne fonctionne qu’une fois. Retournez à la boutique pour voir le résultat de votre paiement.',
    endedExpiredTitle: 'Ce lien de paiement a expiré',
    endedExpiredText: 'Le paiement n’a pas été terminé à temps. Retournez à la boutique et recommencez.',
    endedNotFoundTitle: 'Ce lien de paiement n’existe pas',
    endedNotFoundText: 'Vérifiez le lien, ou retournez à la boutique et recommencez.',
    backToShop: 'Retour à la boutique',
  },
  es: {
    testBanner: 'Sistema de pruebas',
    testBannerDetail: 'página simulada, no se mueve dinero.',
    merchant: 'Comercio',
    amount: 'Importe',
    providerTitle: 'Pagar con {brand}',
    providerIntro: '{merchant} le pide que pague con {brand}.',
    providerLegend: 'Elija el resultado de este pago simulado',
    approve: 'Aprobar el pago',
    decline: 'Rechazar el pago',
    cancelToShop: 'Cancelar y volver a la tienda',
    challengeTitle: 'Confirme su compra',
    challengeIntro: 'Su banco le pide que confirme este pago con tarjeta.',
    challengeCodeNote: 'Un banco real le pediría ahora un código de un solo uso. Aquí usted elige el resultado de la autenticación.',
    card: 'Tarjeta',
    cardEnding: 'terminada en {last4}',
    challengeLegend: 'Elija el resultado de la autenticación',
    authenticate: 'Autenticar (Y)',
    authenticationFailed: 'Autenticación fallida (N)',
    authenticationUnavailable: 'Autenticación no disponible (U)',
    issuerRejects: 'El banco rechaza (R)',
    cancel: 'Cancelar',
    endedCompletedTitle: 'Este pago ya ha terminado',
    endedCompletedText: 'Este enlace solo funciona una vez. Vuelva a la tienda para ver el resultado de su pago.',
    endedExpiredTitle: 'Este enlace de pago ha caducado',
    endedExpiredText: 'El pago no se completó a tiempo. Vuelva a la tienda y empiece de nuevo.',
    endedNotFoundTitle: 'Este enlace de pago no existe',
    endedNotFoundText: 'Compruebe el enlace, o vuelva a la tienda y empiece de nuevo.',
    backToShop: 'Volver a la tienda',
  },
  it: {
    testBanner: 'Sistema di test',
    testBannerDetail: 'pagina simulata, nessun movimento di denaro.',
    merchant: 'Esercente',
    amount: 'Importo',
    providerTitle: 'Paga con {brand}',
    providerIntro: '{merchant} ti chiede di pagare con {brand}.',
    providerLegend: 'Scegli l’esito di questo pagamento simulato',
    approve: 'Approva il pagamento',
    decline: 'Rifiuta il pagamento',
    cancelToShop: 'Annulla e torna al negozio',
    challengeTitle: 'Conferma il tuo acquisto',
    challengeIntro: 'La tua banca ti chiede di confermare questo pagamento con carta.',
    challengeCodeNote: 'Una banca reale ti chiederebbe ora un codice monouso. Qui scegli l’esito dell’autenticazione.',
    card: 'Carta',
    cardEnding: 'che termina con {last4}',
    challengeLegend: 'Scegli l’esito dell’autenticazione',
    authenticate: 'Autentica (Y)',
    authenticationFailed: 'Autenticazione fallita (N)',
    authenticationUnavailable: 'Autenticazione non disponibile (U)',
    issuerRejects: 'La banca rifiuta (R)',
    cancel: 'Annulla',
    endedCompletedTitle: 'Questo pagamento è già concluso',
    endedCompletedText: 'Questo link funziona una sola volta. Torna al negozio per vedere l’esito del pagamento.',
    endedExpiredTitle: 'Questo link di pagamento è scaduto',
    endedExpiredText: 'Il pagamento non è stato completato in tempo. Torna al negozio e ricomincia.',
    endedNotFoundTitle: 'Questo link di pagamento non esiste',
    endedNotFoundText: 'Controlla il link, oppure torna al negozio e ricomincia.',
    backToShop: 'Torna al negozio',
  },
  nl: {
    testBanner: 'Testsysteem',
    testBannerDetail: 'gesimuleerde pagina, er wordt geen geld overgemaakt.',
    merchant: 'Winkel',
    amount: 'Bedrag',
    providerTitle: 'Betalen met {brand}',
    providerIntro: '{merchant} vraagt u te betalen met {brand}.',
    providerLegend: 'Kies de uitkomst van deze gesimuleerde betaling',
    approve: 'Betaling goedkeuren',
    decline: 'Betaling weigeren',
    cancelToShop: 'Annuleren en terug naar de winkel',
    challengeTitle: 'Bevestig uw aankoop',
    challengeIntro: 'Uw bank vraagt u deze kaartbetaling te bevestigen.',
    challengeCodeNote: 'Een echte bank zou nu om een eenmalige code vragen. Hier kiest u de uitkomst van de authenticatie.',
    card: 'Kaart',
    cardEnding: 'eindigend op {last4}',
    challengeLegend: 'Kies de uitkomst van de authenticatie',
    authenticate: 'Authenticeren (Y)',
    authenticationFailed: 'Authenticatie mislukt (N)',
    authenticationUnavailable: 'Authenticatie niet beschikbaar (U)',
    issuerRejects: 'Bank weigert (R)',
    cancel: 'Annuleren',
    endedCompletedTitle: 'Deze betaling is al afgerond',
    endedCompletedText: 'Deze link werkt maar één keer. Ga terug naar de winkel om de uitkomst van uw betaling te zien.',
    endedExpiredTitle: 'Deze betaallink is verlopen',
    endedExpiredText: 'De betaling is niet op tijd afgerond. Ga terug naar de winkel en begin opnieuw.',
    endedNotFoundTitle: 'Deze betaallink bestaat niet',
    endedNotFoundText: 'Controleer de link, of ga terug naar de winkel en begin opnieuw.',
    backToShop: 'Terug naar de winkel',
  },
});
