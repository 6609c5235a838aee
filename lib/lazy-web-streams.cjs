// Stands in for node:stream/web in every bundle (lib/bundling.ts): each of its classes, read from Node.js's
// globals (all are globals since Node.js 18) only when used, so loading a bundle no longer loads the module.
const NAMES = [
  'ReadableStream',
  'ReadableStreamDefaultReader',
  'ReadableStreamBYOBReader',
  'ReadableStreamBYOBRequest',
  'ReadableByteStreamController',
  'ReadableStreamDefaultController',
  'TransformStream',
  'TransformStreamDefaultController',
  'WritableStream',
  'WritableStreamDefaultWriter',
  'WritableStreamDefaultController',
  'ByteLengthQueuingStrategy',
  'CountQueuingStrategy',
  'TextEncoderStream',
  'TextDecoderStream',
  'CompressionStream',
  'DecompressionStream',
];

for (const name of NAMES) Object.defineProperty(exports, name, { enumerable: true, get: () => globalThis[name] });
