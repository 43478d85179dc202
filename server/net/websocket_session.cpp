// The WebSocket session: Beast's opening handshake, then the session frames its messages itself
// (protocol/websocket.h): every message queued for the connection while a write is in flight,
// or during one pass of the event loop, goes out in one gathered write, one system call.
// Broadcast payloads are shared between the recipients; only the 2 to 4 bytes of frame header
// are per connection. What the messages mean is the Inbox's (inbox.h).
#include <algorithm>
#include <cstring>
#include <vector>

#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <spdlog/spdlog.h>

#include "inbox.h"
#include "network_shared.h"
#include "room.h"
#include "services.h"
#include "timer_grid.h"
#include "spookludo/protocol/websocket.h"

namespace spookludo::server {

namespace websocket = beast::websocket;
namespace ws = protocol::ws;

namespace {

// The memory of an operation a connection always has pending, for as long as it is open (the
// wait for bytes to read, the keep-alive's timer), kept in the connection. Asio's own recycling
// would hand each of them whatever block an earlier operation freed (the handshake's HTTP read,
// ~470 bytes) and keep that for the connection's life; this is one slot of the size the
// operation needs, in the session itself, with the heap as the fallback for anything bigger or
// for a second operation at the same time (a timer's new wait while the cancelled one is still
// queued).
template <std::size_t Bytes>
class OpMemory {
public:
    void* allocate(std::size_t size) {
        if (!used_ && size <= Bytes) {
            used_ = true;
            return slot_;
        }
        return ::operator new(size);
    }
    void deallocate(void* p) noexcept {
        if (p == slot_) used_ = false;
        else ::operator delete(p);
    }

private:
    alignas(std::max_align_t) unsigned char slot_[Bytes];
    bool used_ = false;
};

// The sizes of the operations (Boost 1.81, GCC 12): the wait for bytes with one I/O thread 208,
// the read with several 240 (a TLS read is bigger and takes the heap); a timer's wait 192.
using ReadOpMemory = OpMemory<240>;
using TimerOpMemory = OpMemory<192>;

template <class T, class Memory>  // T first: std::allocator_traits rebinds the first argument
struct OpAllocator {
    using value_type = T;
    Memory* memory;
    explicit OpAllocator(Memory* m) noexcept : memory(m) {}
    template <class U>
    OpAllocator(const OpAllocator<U, Memory>& other) noexcept : memory(other.memory) {}
    T* allocate(std::size_t n) { return static_cast<T*>(memory->allocate(n * sizeof(T))); }
    void deallocate(T* p, std::size_t) noexcept { memory->deallocate(p); }
    template <class U>
    bool operator==(const OpAllocator<U, Memory>& other) const noexcept { return memory == other.memory; }
};

template <class Memory, class Handler>
auto in_slot(Memory& memory, Handler&& handler) {
    return net::bind_allocator(OpAllocator<void, Memory>(&memory), std::forward<Handler>(handler));
}

template <class Stream>
class WebSocketSession final : public Peer, public std::enable_shared_from_this<WebSocketSession<Stream>> {
public:
    WebSocketSession(Stream&& stream, std::shared_ptr<Network::Impl> network, ConnectionSlot slot)
        : stream_(std::move(stream)), timer_(stream_.get_executor()), network_(std::move(network)),
          slot_(std::move(slot)), address_(slot_.address()), id_(network_->next_id++),
          reader_(ws::FrameReader::Role::server, protocol::kMaxMessageBytes),
          inbox_(network_->io, network_->services, *this) {}

    ~WebSocketSession() override {
        --network_->services.metrics.connections;
        network_->services.metrics.websocket_read_bytes -= static_cast<long>(read_bytes_);
        std::lock_guard lock(network_->sessions_mutex);
        network_->sessions.erase(id_);
    }

    std::uint64_t id() const noexcept override { return id_; }
    const std::string& address() const noexcept override { return address_; }
    using Peer::send;

    void run(http::request<http::string_body> req, std::string early) {
        ++network_->services.metrics.connections;
        {
            std::lock_guard lock(network_->sessions_mutex);
            network_->sessions[id_] = this->weak_from_this();
        }
        // The opening handshake is Beast's (it checks the request and answers 101 or 400); the
        // websocket stream borrows ours only for that.
        auto handshake = std::make_shared<websocket::stream<Stream&>>(stream_);
        handshake->set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
            res.set(http::field::server, "spookludo-server");
        }));
        timer_.expires_after(std::chrono::milliseconds(network_->services.config.handshake_timeout_ms));
        timer_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
            if (!ec && !self->open_) self->hang_up();
        });
        handshake->async_accept(req, [self = this->shared_from_this(), handshake,
                                      early = std::move(early)](beast::error_code ec) {
            if (ec) {
                log_failure(ec, "websocket accept");
                return self->hang_up();
            }
            self->open_ = true;
            self->keep_alive();
            // A client may send its first frames with the upgrade request, in the same segment:
            // they were read with the request, and are taken before anything else.
            if (early.empty()) return self->read();
            std::memcpy(self->reader_.prepare(early.size()), early.data(), early.size());
            self->on_read({}, early.size());
        });
    }

    void send(std::shared_ptr<const std::string> text) override { enqueue(ws::Opcode::text, std::move(text)); }
    void grant_answer() override { inbox_.grant_answer(); }
    void detach(const Room& room, std::uint64_t entry) override {
        net::post(stream_.get_executor(), [self = this->shared_from_this(), room = &room, entry] {
            self->inbox_.detach(room, entry);
        });
    }
    void strike() override {
        net::post(stream_.get_executor(), [self = this->shared_from_this()] {
            if (self->closing()) return;  // closed already: nothing counts any more
            if (self->inbox_.strike() == Inbox::Outcome::close) self->close_with(ws::kClosePolicy, "too many bad messages");
        });
    }
    void post(std::function<bool()> fn) override {
        net::post(stream_.get_executor(), [self = this->shared_from_this(), fn = std::move(fn)] {
            if (fn()) self->close_with(ws::kClosePolicy, "too many bad messages");
        });
    }
    void close() override {
        net::post(stream_.get_executor(), [self = this->shared_from_this()] {
            // Mid-handshake there is no WebSocket to close yet: the connection just ends.
            if (!self->open_) return self->hang_up();
            self->close_with(ws::kCloseNormal, "");
        });
    }

private:
    struct Outgoing {
        ws::FrameHeader header;
        std::shared_ptr<const std::string> payload;
        ws::Opcode opcode;
    };

    // ---- Writing: any thread queues, the session's strand writes ---------------------------
    void enqueue(ws::Opcode opcode, std::shared_ptr<const std::string> payload) {
        bool start = false;
        {
            std::lock_guard lock(out_mutex_);
            if (close_queued_ || dropped_) return;
            // Every frame but our close counts against the queue's bound: pongs for a client
            // that pings and never reads are dropped with it, not queued without end.
            if (opcode != ws::Opcode::close && too_slow()) {
                // A slow reader is dropped; the room goes on without waiting for it.
                spdlog::info("connection {} from {}: {} messages queued, the reader is too slow; dropped", id_,
                             address_, queued_.size());
                dropped_ = true;
                queued_.clear();
                ++network_->services.metrics.slow_readers_dropped;
                net::post(stream_.get_executor(), [self = this->shared_from_this()] { self->hang_up(); });
                return;
            }
            if (opcode == ws::Opcode::close) close_queued_ = true;
            queued_.push_back({ws::frame_header(opcode, payload->size()), std::move(payload), opcode});
            if (!writing_) start = writing_ = true;
        }
        // Posted, not written at once: what else this pass of the event loop queues goes along.
        if (start) net::post(stream_.get_executor(), [self = this->shared_from_this()] { self->flush(); });
    }

    // Under out_mutex_. A reader is too slow when send_queue_limit messages wait behind a write
    // the kernel has not taken for a second (its socket buffers are full: it does not read). A
    // zero-pace room may queue more than that in one burst while its write is on its way; only
    // an absurd queue (16 times the limit) is too much in any case.
    bool too_slow() const {
        const std::size_t limit = network_->services.config.send_queue_limit;
        if (queued_.size() < limit) return false;
        if (queued_.size() >= 16 * limit) return true;
        return write_in_flight_ && std::chrono::steady_clock::now() - write_started_ > kWriteStall;
    }

    void flush() {
        {
            std::lock_guard lock(out_mutex_);
            if (queued_.empty() || dropped_ || !socket_of(stream_).is_open()) {
                writing_ = false;
                queued_.clear();
                return;
            }
            in_flight_.swap(queued_);
            write_in_flight_ = true;
            write_started_ = std::chrono::steady_clock::now();
        }
        buffers_.clear();
        if constexpr (is_tls_v<Stream>) {
            // TLS takes one buffer at a time (a record, and a write, each): the pass's frames are
            // copied into one, so that they still leave together.
            flat_.clear();
            for (const auto& o : in_flight_) {
                flat_.append(o.header.view());
                flat_.append(*o.payload);
            }
            buffers_.emplace_back(flat_.data(), flat_.size());
        } else {
            for (const auto& o : in_flight_) {
                buffers_.emplace_back(o.header.bytes.data(), o.header.size);
                buffers_.emplace_back(o.payload->data(), o.payload->size());
            }
        }
        net::async_write(stream_, buffers_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
            self->on_write(ec);
        });
    }

    void on_write(beast::error_code ec) {
        bool sent_close = false;
        std::uint64_t messages = 0;
        for (const auto& o : in_flight_) {
            if (o.opcode == ws::Opcode::text) ++messages;
            if (o.opcode == ws::Opcode::close) sent_close = true;
        }
        network_->services.metrics.messages_out += static_cast<long>(messages);
        bool idle;
        {
            std::lock_guard lock(out_mutex_);
            write_in_flight_ = false;
            idle = queued_.empty();
        }
        if (idle) {  // an idle connection keeps no write buffers
            std::vector<Outgoing>().swap(in_flight_);
            std::vector<net::const_buffer>().swap(buffers_);
            std::string().swap(flat_);
        } else {
            in_flight_.clear();
        }
        if (ec) {
            log_failure(ec, "websocket write");
            return hang_up();
        }
        if (sent_close) return after_close_sent();
        flush();
    }

    // ---- Closing -------------------------------------------------------------------------
    // Once the close has begun, whatever its reason, it is never begun again: one close frame,
    // one deadline for the hang-up, and what the peer still sends is read and dropped (the
    // reader drains: nothing is parsed into a buffer, nothing counts as a message or a strike).
    // Only the peer's close frame or its end of stream can end the connection sooner.

    // The close frame is out: nothing more is written; wait (briefly) for the peer's close frame
    // or end of stream, then hang up: kCloseWait from now at most, and never later than
    // close_with's deadline.
    void after_close_sent() {
        {
            std::lock_guard lock(out_mutex_);
            writing_ = false;
            queued_.clear();
        }
        if (peer_closed_) return hang_up();
        shutdown_send(stream_);
        timer_.expires_at(std::min(timer_.expiry(), net::steady_timer::clock_type::now() + kCloseWait));
        timer_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
            if (!ec) self->hang_up();
        });
    }

    // Closes with a code and reason (a protocol failure, too many bad messages, the server
    // stopping, the answer to the peer's close). Only the first call does anything.
    void close_with(std::uint16_t code, std::string_view reason) {
        if (closing()) return;
        reader_.drain();
        enqueue(ws::Opcode::close, std::make_shared<const std::string>(ws::close_payload(code, reason)));
        // The close frame may wait behind a write the peer never reads: the connection ends
        // anyway, a stalled write's time plus the close's wait later (after_close_sent brings
        // this deadline forward once the frame is out, never back).
        timer_.expires_after(kWriteStall + kCloseWait);
        timer_.async_wait([self = this->shared_from_this()](beast::error_code ec) {
            if (!ec) self->hang_up();
        });
    }

    void hang_up() {
        if (hung_up_) return;
        hung_up_ = true;
        {
            std::lock_guard lock(out_mutex_);
            dropped_ = true;
            queued_.clear();
        }
        hang_up_stream(stream_);
        timer_.cancel();
        inbox_.on_gone(this->shared_from_this());
    }

    // ---- Keep-alive: a ping after half the idle time of silence, closed after the other half.
    void keep_alive() {
        const std::chrono::milliseconds half(network_->services.config.idle_timeout_ms / 2);
        timer_.expires_at(on_grid(GridClock::now() + half, std::clamp<GridClock::duration>(half / 8, std::chrono::milliseconds(1), kKeepAliveGrid)));
        timer_.async_wait(in_slot(timer_memory_, [self = this->shared_from_this()](beast::error_code ec) {
            if (ec || self->hung_up_ || self->closing()) return;
            if (self->heard_) {
                self->heard_ = false;
                self->ping_sent_ = false;
            } else if (self->ping_sent_) {
                spdlog::debug("connection {}: silent for {} ms; closed", self->id_,
                              self->network_->services.config.idle_timeout_ms);
                return self->hang_up();
            } else {
                self->ping_sent_ = true;
                self->enqueue(ws::Opcode::ping, std::make_shared<const std::string>());
            }
            self->keep_alive();
        }));
    }

    bool closing() {
        std::lock_guard lock(out_mutex_);
        return close_queued_ || dropped_;
    }

    // ---- Reading --------------------------------------------------------------------------
    // With one I/O thread (the default) a plain connection is read when the socket says it is
    // readable, into the thread's buffer, so that no connection keeps a read buffer of its own
    // (only a frame cut by a segment's end is kept). A read shorter than the buffer took all
    // there was; the wait that follows re-arms the socket in the reactor (epoll_ctl), which
    // reports it again if bytes came meanwhile. That call takes the place of the read that finds
    // nothing, which Asio's own read makes first (half the reads at party pace): the same system
    // calls, 2 KB less a room. With several threads and for TLS (tls_socket.h), Asio's read into
    // the connection's buffer, as before.
    void read() {
        if constexpr (!is_tls_v<Stream>) {
            if (network_->services.config.threads <= 1) {
                count_read_bytes();
                socket_of(stream_).async_wait(net::socket_base::wait_read,
                                              in_slot(read_memory_,
                                                                  [self = this->shared_from_this()](beast::error_code ec) {
                                                                      self->on_readable(ec);
                                                                  }));
                return;
            }
        }
        char* at = reader_.prepare(kReadChunk);
        count_read_bytes();
        stream_.async_read_some(net::buffer(at, reader_.free_space()),
                                in_slot(read_memory_,
                                                    [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                                                        self->on_read(ec, n);
                                                    }));
    }

    void on_readable(beast::error_code ec) {
        if (ec) return on_read(ec, 0);
        auto& socket = socket_of(stream_);
        if (!socket.non_blocking()) {
            socket.non_blocking(true, ec);  // a read that would wait says so instead
            if (ec) return on_read(ec, 0);
        }
        char* const scratch = read_scratch();
        for (int reads = 0;; ++reads) {
            if (reads == kReadsPerTurn) {
                // A client sending flat out gets its turn again after the others' handlers.
                count_read_bytes();
                net::post(stream_.get_executor(), [self = this->shared_from_this()] { self->on_readable({}); });
                return;
            }
            const std::size_t n = socket.read_some(net::buffer(scratch, kScratch), ec);
            if (ec == net::error::would_block || ec == net::error::try_again) break;
            if (ec) return on_read(ec, 0);
            reader_.take(scratch, n);
            const bool more = consume();
            reader_.keep();  // before the thread's buffer is read into again
            if (!more) return;
            if (n < kScratch) break;
        }
        reader_.release_if_empty();  // only a cut frame is kept
        read();
    }

    // What the reader holds, in the server's figure (spookludo_websocket_read_bytes).
    void count_read_bytes() {
        const std::size_t held = reader_.capacity() - std::string().capacity();  // an empty string's room is inline
        if (held == read_bytes_) return;
        network_->services.metrics.websocket_read_bytes += static_cast<long>(held) - static_cast<long>(read_bytes_);
        read_bytes_ = held;
    }

    static char* read_scratch() {
        thread_local const std::unique_ptr<char[]> buffer = std::make_unique_for_overwrite<char[]>(kScratch);
        return buffer.get();
    }

    void on_read(beast::error_code ec, std::size_t n) {
        if (ec) {
            if (!closing()) log_failure(ec, "websocket read");
            return hang_up();
        }
        reader_.commit(n);
        if (!consume()) return;
        reader_.release_if_empty(kReadChunk);
        read();
    }

    // Takes the whole messages read so far, in order; false when nothing more is to be read (the
    // peer's close frame came). Once our close has begun the reader drains (close_with): only the
    // peer's close frame comes out of it, the rest of every read is dropped.
    bool consume() {
        heard_ = true;
        if (reader_.failure().code) {  // closing after a protocol failure: what follows is ignored
            reader_.clear();
            return true;
        }
        ws::FrameReader::Message m;
        for (;;) {
            const auto status = reader_.next(m);
            if (status == ws::FrameReader::Status::need_more) return true;
            if (status == ws::FrameReader::Status::failed) {
                const auto& f = reader_.failure();
                if (f.code == ws::kCloseTooBig)
                    spdlog::info("connection {}: a frame over {} bytes; closed", id_, protocol::kMaxMessageBytes);
                else
                    spdlog::info("connection {} from {}: {}; closed", id_, address_, f.reason);
                close_with(f.code, f.reason);
                reader_.clear();  // the rest of the stream cannot be read as frames: dropped
                return true;      // for the peer's end of stream
            }
            switch (m.opcode) {
                case ws::Opcode::ping:
                    switch (inbox_.on_control()) {
                        case Inbox::Control::answer:
                            enqueue(ws::Opcode::pong, std::make_shared<const std::string>(m.payload));
                            break;
                        case Inbox::Control::ignore: break;
                        case Inbox::Control::close: close_with(ws::kClosePolicy, "too many pings"); break;
                    }
                    break;
                case ws::Opcode::close:
                    peer_closed_ = true;
                    if (closing()) {
                        hang_up();  // the answer to our close frame
                        return false;
                    }
                    // Answer with the same code, then hang up once it is written.
                    if (const auto code = ws::close_code_of(m.payload)) close_with(code, "");
                    else close_with(ws::kCloseNormal, "");
                    return false;
                case ws::Opcode::text:
                case ws::Opcode::binary:
                    if (!closing()) on_message(m.opcode == ws::Opcode::text, m.payload);
                    break;
                default:  // pong
                    if (inbox_.on_control() == Inbox::Control::close) close_with(ws::kClosePolicy, "too many pongs");
                    break;
            }
        }
    }

    void on_message(bool text, std::string_view data) {
        const auto self = this->shared_from_this();
        const auto outcome = text ? inbox_.on_text(self, data) : inbox_.on_binary(self);
        if (outcome == Inbox::Outcome::close) close_with(ws::kClosePolicy, "too many bad messages");
    }

    static constexpr std::size_t kReadChunk = 512;  // a choose is about 60 bytes; more grows it
    static constexpr std::size_t kScratch = 64 * 1024;  // the thread's read buffer (read_scratch)
    static constexpr int kReadsPerTurn = 4;               // full reads before others' handlers run
    static constexpr std::chrono::seconds kCloseWait{2};
    static constexpr std::chrono::seconds kWriteStall{1};  // see too_slow()

    Stream stream_;
    net::steady_timer timer_;  // handshake, keep-alive, the wait after our close frame
    std::shared_ptr<Network::Impl> network_;
    ConnectionSlot slot_;  // this connection's place under the limits, given back when it ends
    std::string address_;
    std::uint64_t id_;
    ws::FrameReader reader_;
    ReadOpMemory read_memory_;    // the pending read's (read())
    TimerOpMemory timer_memory_;  // the keep-alive's wait (keep_alive())
    Inbox inbox_;
    bool open_ = false;         // the handshake is done
    bool heard_ = false;        // bytes came since the last keep-alive check
    bool ping_sent_ = false;
    bool peer_closed_ = false;  // the peer's close frame came
    bool hung_up_ = false;
    std::size_t read_bytes_ = 0;  // what the reader held when last counted (count_read_bytes)

    // Outgoing frames. queued_ and the flags are shared with other threads (rooms), under
    // out_mutex_; in_flight_ and buffers_ belong to the write in progress, on the strand.
    std::mutex out_mutex_;
    std::vector<Outgoing> queued_;
    bool write_in_flight_ = false;
    std::chrono::steady_clock::time_point write_started_{};
    bool writing_ = false;       // a write is in flight or a flush is posted
    bool close_queued_ = false;  // our close frame is queued: nothing more goes out
    bool dropped_ = false;       // hung up (slow reader, error): nothing more goes out
    std::vector<Outgoing> in_flight_;
    std::vector<net::const_buffer> buffers_;
    std::string flat_;  // TLS: the pass's frames in one buffer
};

}  // namespace

template <class Stream>
void run_websocket_session(Stream&& stream, std::shared_ptr<Network::Impl> network, ConnectionSlot slot,
                           http::request<http::string_body> request, std::string early) {
    std::make_shared<WebSocketSession<Stream>>(std::move(stream), std::move(network), std::move(slot))
        ->run(std::move(request), std::move(early));
}

template void run_websocket_session<PlainStream>(PlainStream&&, std::shared_ptr<Network::Impl>, ConnectionSlot,
                                                 http::request<http::string_body>, std::string);
template void run_websocket_session<TlsStream>(TlsStream&&, std::shared_ptr<Network::Impl>, ConnectionSlot,
                                               http::request<http::string_body>, std::string);

}  // namespace spookludo::server
