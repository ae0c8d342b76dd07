export {
  baseName,
  defaultFormat,
  formatFor,
  formatSignatureLine,
  insertSignatureLine,
  parseSignatureLine,
  pathSuffix,
  removeSignatureLine,
  signatureFormatFor,
  SignatureFormatError,
  stripShebang,
  type ItemKind,
  type SignatureFormat,
  type SignatureInfo,
} from "./signature-line.js";
export { contentHash, hashRegion, NoDirectiveError, normalizeNewlines, pyStrip, sha256Hex } from "./hash-region.js";
export {
  decodeBase64Url,
  encodeBase64Url,
  signMessage,
  toPrivateKey,
  toPublicKey,
  verifyMessage,
  type PrivateKeyInput,
  type PublicKeyInput,
} from "./ed25519.js";
export {
  fingerprint,
  generateKeyPair,
  KeyExistsError,
  KeyPermissionError,
  loadPrivateKey,
  loadSigningKey,
  normalizePem,
  publicKeyPem,
  rawPublicKeyPem,
  signingKeyDir,
  signingKeyFrom,
  userSpace,
  writeKeyPair,
  type KeyPairPem,
  type SigningKey,
} from "./keys.js";
export {
  createTrustStore,
  formatTrustedKeyToml,
  loadTrustStore,
  parseTrustedKeyToml,
  trustStoreFromPems,
  writeTrustedKey,
  type SpaceRoot,
  type TrustedKey,
  type TrustStore,
} from "./trust-store.js";
export { checkTimestamp, formatTimestamp, signItem, sourceTimestamp, timestampFromEnv } from "./sign-item.js";
export { signSource, type SignedSource } from "./sign-source.js";
export {
  inferItemId,
  verifyItem,
  type ItemVerification,
  type VerifyItemOptions,
  type VerifyOutcome,
} from "./verify-item.js";
export {
  moduleSignedMessage,
  parseModuleSignature,
  signModule,
  verifyModule,
  type VerifyModuleOptions,
} from "./sign-module.js";
export {
  manifestFiles,
  parseShard,
  serializeManifest,
  shardPath,
  signManifest,
  verifyManifest,
  type Manifest,
  type Shard,
} from "./sign-manifest.js";
export { canonicalJson, computeIntegrity, PyFloat, pyFloat } from "./integrity.js";
export { isUnderAi, kindFromPath, sniffMarkdownKind, type FileKind } from "./kind-from-path.js";
