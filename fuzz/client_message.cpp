// The client message decoder (protocol::parse_client_message) over any text, and what the server
// writes back: for a rejected message the error reply built from what was rejected
// (protocol::error_message, as the WebSocket session sends it), for an accepted one its encoding
// (protocol::encode). Invariants: nothing throws; the reply is a JSON object of type "error" with
// the code of the rejection, at most 512 bytes whatever was sent; an accepted message encodes to text that parses again as the same
// message type and encodes to the same text (encode and parse agree).
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "fuzz.h"
#include "spookludo/protocol/messages.h"

namespace protocol = spookludo::protocol;

namespace {
constexpr std::size_t kMaxReplyBytes = 512;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = spookludo::fuzz::as_text(data, size);
    auto parsed = protocol::parse_client_message(text);
    if (auto* error = std::get_if<protocol::ProtocolError>(&parsed)) {
        FUZZ_CHECK(!error->message.empty(), std::string(protocol::to_string(error->code)));
        for (std::string_view ref : {std::string_view{}, std::string_view{"choose"}}) {
            const std::string reply = protocol::error_message(error->code, error->message, ref);
            const auto j = nlohmann::json::parse(reply, nullptr, false);
            FUZZ_CHECK(j.is_object(), reply);
            FUZZ_CHECK(j.value("type", "") == "error", reply);
            FUZZ_CHECK(j.value("code", "") == protocol::to_string(error->code), reply);
            FUZZ_CHECK(j.contains("message") && j["message"].is_string() && !j["message"].empty(), reply);
            // Client text is quoted cut short, never echoed whole (a 4 KB message gives a short reply).
            FUZZ_CHECK(reply.size() <= kMaxReplyBytes, std::to_string(reply.size()) + " bytes: " + reply);
        }
        return 0;
    }
    const auto& message = std::get<protocol::ClientMessage>(parsed);
    const std::string encoded = protocol::encode(message);
    auto again = protocol::parse_client_message(encoded);
    auto* back = std::get_if<protocol::ClientMessage>(&again);
    FUZZ_CHECK(back != nullptr, encoded + " -> " + std::get<protocol::ProtocolError>(again).message);
    FUZZ_CHECK(back->index() == message.index(), encoded);
    const std::string reencoded = protocol::encode(*back);
    FUZZ_CHECK(reencoded == encoded, encoded + " -> " + reencoded);
    return 0;
}
