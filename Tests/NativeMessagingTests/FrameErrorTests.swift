import BridgeSystem
import Testing

@testable import NativeMessaging

@Suite struct FrameErrorTests {
    /// The host logs these when a browser closes the pipe mid-message: how far the frame got,
    /// and what that means.
    @Test func descriptions_sayHowFarTheFrameGot() {
        #expect(
            FrameError.truncatedHeader(received: 2).description
                == "input ended inside a frame header (2 of 4 bytes); the browser closed the pipe mid-message")
        #expect(
            FrameError.truncatedBody(expected: 10, received: 3).description
                == "input ended inside a frame body (3 of 10 bytes); the browser closed the pipe mid-message")
        #expect(
            FrameError.bodyTooLarge(length: 5, maximum: 4).description
                == "a frame of 5 bytes exceeds the maximum of 4 bytes")
        let io = SystemError("write", "fd 1", code: Errno.brokenPipe)
        #expect(FrameError.io(io).description == io.description)
    }
}
