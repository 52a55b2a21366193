export { createSimulatorConnector, createExternalTestPlatformConnector, SIMULATOR_POLICY, type SimulatorDependencies } from './simulator.js';
export { SIMULATOR_ROWS, matchSimulatorRow } from './rules.js';
export { COMPATIBILITY_TEST_CARDS } from './rules-cards.js';
export { SIMULATED_SCHEME_ID } from './input.js';
export { INTERNAL_SIMULATOR, EXTERNAL_TEST_PLATFORM, AVS_ROWS, CVV_ROWS } from './tables.js';
export { decryptWalletToken, encryptWalletTokenForTests, WALLET_TEST_KEYS_HEX, type WalletTokenPayload } from './wallet-token.js';
export { renderSimulatorTables, spliceSimulatorTables } from './docs.js';
export { simulatedSettlement, type SettlementTransactionSource } from './settlement/settlement-feed.js';
export type { SettleableTransaction } from './settlement/rules.js';
