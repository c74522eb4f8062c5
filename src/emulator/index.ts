/** The bundled emulator of the market data service: start it, configure it, generate captures. */
export { type CaptureExtraKind, type CaptureOptions, generateCapture } from './capture.js';
export {
  type CertificateOptions,
  type CertifiedKey,
  makeCertificates,
  type TlsMaterial,
} from './certificates.js';
export { EMULATOR_HELP } from './help.js';
export {
  defaultEmulatorOptions,
  type EmulatorOptions,
  type ErrorTexts,
  type Fault,
  type FaultKind,
  parseEmulatorOption,
} from './options.js';
export type { EmulatorHooks, RecordedRequest } from './requests.js';
export { type Emulator, startEmulator } from './server.js';
export type { EmulatorTls } from './tls.js';
