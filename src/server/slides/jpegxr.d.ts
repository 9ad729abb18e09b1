// Types for the `jpegxr` npm package (an Emscripten build of Microsoft's jxrlib), which ships none.
declare module 'jpegxr' {
  export interface JxrPixelInfo {
    channels: number;
    colorFormat: string;
    /** '8', '16', '32Float', ... */
    bitDepth: string;
    bitsPerPixel: number;
    hasAlpha: boolean;
    premultipledAlpha: boolean;
    /** True when three-colour samples are stored blue first. */
    bgr: boolean;
  }
  export interface JxrImage {
    width: number;
    height: number;
    pixelInfo: JxrPixelInfo;
    bytes: Uint8Array;
  }
  export interface JxrCodec {
    decode(bytes: Uint8Array): JxrImage;
  }
  const factory: () => Promise<JxrCodec>;
  export default factory;
}
