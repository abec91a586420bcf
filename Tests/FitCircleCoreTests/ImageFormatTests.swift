import FitCircleCore
import Testing

struct ImageFormatTests {
    @Test func jpegAndPngAreRecognisedByTheirBytes() {
        #expect(ImageFormat.detect([0xFF, 0xD8, 0xFF, 0xE0, 0x00]) == .jpeg)
        #expect(ImageFormat.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00]) == .png)
    }

    @Test func anythingElseIsNotAnImage() {
        #expect(ImageFormat.detect(Array("GIF89a".utf8)) == nil)
        #expect(ImageFormat.detect(Array("<svg>".utf8)) == nil)
        #expect(ImageFormat.detect([0xFF, 0xD8]) == nil)
        #expect(ImageFormat.detect([UInt8]()) == nil)
    }
}
