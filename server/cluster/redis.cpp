#include "redis.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include <atomic>
#include <csignal>
#include <deque>
#include <stdexcept>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <spdlog/spdlog.h>

namespace spookludo::server::redis {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

Address parse_url(std::string_view url) {
    constexpr std::string_view scheme = "redis://";
    if (!url.starts_with(scheme))
        throw std::invalid_argument("a Redis address is redis://HOST:PORT, not '" + std::string(url) + "'");
    std::string_view rest = url.substr(scheme.size());
    if (rest.ends_with('/')) rest.remove_suffix(1);
    if (rest.find('/') != std::string_view::npos || rest.find('@') != std::string_view::npos)
        throw std::invalid_argument("a Redis address is redis://HOST:PORT (no user, database or path): '" +
                                    std::string(url) + "'");
    Address a;
    std::string_view port;
    if (rest.starts_with('[')) {
        const auto close = rest.find(']');
        if (close == std::string_view::npos) throw std::invalid_argument("an IPv6 address without its ']': " + std::string(url));
        a.host = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') throw std::invalid_argument("a ':' and a port after ']': " + std::string(url));
            port = rest.substr(1);
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
        a.host = std::string(rest.substr(0, colon));
        port = rest.substr(colon + 1);
    } else {
        a.host = std::string(rest);
    }
    if (a.host.empty()) throw std::invalid_argument("a Redis address needs a host: '" + std::string(url) + "'");
    if (!port.empty() || (rest.size() && rest.back() == ':')) {
        unsigned long n = 0;
        for (char c : port) {
            if (c < '0' || c > '9') throw std::invalid_argument("the port of '" + std::string(url) + "' is not a number");
            n = n * 10 + static_cast<unsigned long>(c - '0');
            if (n > 65535) break;
        }
        if (port.empty() || n == 0 || n > 65535)
            throw std::invalid_argument("the port of '" + std::string(url) + "' is not between 1 and 65535");
        a.port = static_cast<std::uint16_t>(n);
    }
    return a;
}

namespace {

Reply convert(const redisReply* r) {
    Reply out;
    switch (r->type) {
        case REDIS_REPLY_STRING: out.type = Reply::Type::string; break;
        case REDIS_REPLY_STATUS: out.type = Reply::Type::status; break;
        case REDIS_REPLY_ERROR: out.type = Reply::Type::error; break;
        case REDIS_REPLY_INTEGER: out.type = Reply::Type::integer; break;
        case REDIS_REPLY_ARRAY: out.type = Reply::Type::array; break;
        default: out.type = Reply::Type::nil; break;
    }
    if (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS || r->type == REDIS_REPLY_ERROR)
        out.text.assign(r->str, r->len);
    if (r->type == REDIS_REPLY_INTEGER) out.integer = r->integer;
    if (r->type == REDIS_REPLY_ARRAY) {
        out.elements.reserve(r->elements);
        for (std::size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
    }
    return out;
}

Reply lost(std::string why) {
    Reply r;
    r.type = Reply::Type::error;
    r.text = std::move(why);
    r.lost = true;
    return r;
}

class ClientImpl final : public Client, public std::enable_shared_from_this<ClientImpl> {
public:
    ClientImpl(net::io_context& io, Address address, ClientOptions options, std::function<void(bool)> on_state)
        : strand_(net::make_strand(io)),
          retry_(strand_),
          watchdog_(strand_),
          connect_timer_(strand_),
          address_(std::move(address)),
          options_(options),
          on_state_(std::move(on_state)) {}

    ~ClientImpl() override {
        if (ac_) {
            destroying_ = true;
            redisAsyncFree(ac_);
        }
    }

    void start() {
        net::dispatch(strand_, [self = shared_from_this()] { self->connect(); });
    }

    void command(std::vector<std::string> args, Done done) override {
        net::dispatch(strand_, [self = shared_from_this(), args = std::move(args), done = std::move(done)]() mutable {
            self->send(args, std::move(done));
        });
    }

    bool connected() const noexcept override { return connected_; }
    const Address& address() const noexcept override { return address_; }

    void close() override {
        // Posted, never run inline: a close asked from inside a hiredis callback (on_state, an
        // answer) must not free the context under hiredis's feet.
        net::post(strand_, [self = shared_from_this()] {
            self->connect_timer_.cancel();
            self->closed_ = true;
            self->retry_.cancel();
            self->watchdog_.cancel();
            self->why_ = "the Redis client was closed";
            if (self->ac_) redisAsyncFree(self->ac_);  // answers what waits (lost), then cleanup()
        });
    }

private:
    // ---- The connection -------------------------------------------------------------------
    void connect() {
        if (closed_ || ac_) return;
        redisAsyncContext* ac = redisAsyncConnect(address_.host.c_str(), address_.port);
        if (!ac || ac->err) {
            const std::string why = ac ? ac->errstr : "out of memory";
            if (ac) redisAsyncFree(ac);
            return failed("cannot connect to Redis at " + address_.url() + ": " + why);
        }
        ac_ = ac;
        ac->data = this;
        ac->ev.data = this;
        ac->ev.addRead = [](void* p) { static_cast<ClientImpl*>(p)->want(true, true); };
        ac->ev.delRead = [](void* p) { static_cast<ClientImpl*>(p)->want(true, false); };
        ac->ev.addWrite = [](void* p) { static_cast<ClientImpl*>(p)->want(false, true); };
        ac->ev.delWrite = [](void* p) { static_cast<ClientImpl*>(p)->want(false, false); };
        ac->ev.cleanup = [](void* p) { static_cast<ClientImpl*>(p)->cleanup(); };
        fd_ = std::make_unique<net::posix::stream_descriptor>(strand_, ac->c.fd);
        ++generation_;
        // A connection that is not made in time (a SYN nobody answers) is given up and tried
        // again; hiredis has no callback for a context that never connected and is freed.
        connect_timer_.expires_after(options_.command_timeout);
        connect_timer_.async_wait([self = shared_from_this(), generation = generation_](boost::system::error_code ec) {
            if (ec || generation != self->generation_ || !self->ac_ || self->connected_) return;
            redisAsyncFree(self->ac_);
            self->failed("cannot connect to Redis at " + self->address_.url() + ": no answer within " +
                         std::to_string(self->options_.command_timeout.count()) + " ms");
        });
        redisAsyncSetConnectCallback(ac, [](const redisAsyncContext* c, int status) {
            auto* self = static_cast<ClientImpl*>(c->data);
            if (status == REDIS_OK) return self->up();
            // hiredis frees the context after this (no disconnect callback: it never connected)
            self->failed("cannot connect to Redis at " + self->address_.url() + ": " + (c->errstr ? c->errstr : "?"));
        });
        redisAsyncSetDisconnectCallback(ac, [](const redisAsyncContext* c, int status) {
            auto* self = static_cast<ClientImpl*>(c->data);
            self->down(status == REDIS_OK ? self->why_ : "lost the connection to Redis at " + self->address_.url() + ": " +
                                                            (c->errstr ? c->errstr : "?"));
        });
    }

    void up() {
        connect_timer_.cancel();
        connected_ = true;
        failures_ = 0;
        why_.clear();
        spdlog::info("connected to Redis at {}", address_.url());
        tell(true);
    }

    void tell(bool state) {
        if (!on_state_) return;
        try {
            on_state_(state);
        } catch (const std::exception& e) {
            spdlog::error("the Redis client's state handler failed: {}", e.what());
        }
    }

    void down(const std::string& why) {
        const bool was = connected_.exchange(false);
        if (destroying_) return;
        if (was) {
            if (!closed_) spdlog::warn("{}", why.empty() ? "lost the connection to Redis at " + address_.url() : why);
            tell(false);
        }
        schedule_reconnect();
    }

    void failed(const std::string& why) {
        if (destroying_) return;
        // Said once, then every 20 tries (a Redis that is down for a while fills no log).
        if (failures_++ % 20 == 0) spdlog::warn("{}", why);
        schedule_reconnect();
    }

    void schedule_reconnect() {
        if (closed_ || destroying_) return;
        retry_.expires_after(options_.reconnect_delay);
        retry_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
            if (!ec) self->connect();
        });
    }

    // hiredis lets go of the context: its socket is its to close.
    void cleanup() {
        if (fd_) {
            fd_->release();
            fd_.reset();
        }
        reading_ = writing_ = want_read_ = want_write_ = false;
        ac_ = nullptr;
        sent_.clear();
        ++generation_;
    }

    // ---- Events: hiredis asks to be told when its socket can be read or written -----------
    void want(bool read, bool on) {
        (read ? want_read_ : want_write_) = on;
        if (on) arm(read);
    }

    void arm(bool read) {
        bool& busy = read ? reading_ : writing_;
        if (busy || !fd_) return;
        busy = true;
        fd_->async_wait(read ? net::posix::stream_descriptor::wait_read : net::posix::stream_descriptor::wait_write,
                        [self = shared_from_this(), read, generation = generation_](boost::system::error_code ec) {
                            if (generation != self->generation_) return;  // another connection since
                            (read ? self->reading_ : self->writing_) = false;
                            if (ec || !self->ac_) return;
                            if (read ? self->want_read_ : self->want_write_) {
                                if (read) redisAsyncHandleRead(self->ac_);
                                else redisAsyncHandleWrite(self->ac_);
                            }
                            // The context may be gone now (an error, a close): cleanup() said so.
                            if (generation == self->generation_ && (read ? self->want_read_ : self->want_write_))
                                self->arm(read);
                        });
    }

    // ---- Commands ---------------------------------------------------------------------------
    void send(const std::vector<std::string>& args, Done done) {
        // Commands that answer more than once would break the one-answer-per-command bookkeeping.
        if (!args.empty()) {
            std::string name = args.front();
            for (char& ch : name) ch = static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
            if (name == "SUBSCRIBE" || name == "PSUBSCRIBE" || name == "SSUBSCRIBE" || name == "MONITOR") {
                Reply r;
                r.type = Reply::Type::error;
                r.text = "this client does not take subscriptions (" + name + ")";
                return net::post(strand_, [done = std::move(done), r = std::move(r)]() mutable { done(std::move(r)); });
            }
        }
        if (!ac_ || !connected_) {
            const std::string why = closed_ ? "the Redis client was closed" : "not connected to Redis at " + address_.url();
            return net::post(strand_, [done = std::move(done), why] { done(lost(why)); });
        }
        std::vector<const char*> argv;
        std::vector<std::size_t> lengths;
        argv.reserve(args.size());
        lengths.reserve(args.size());
        for (const auto& a : args) {
            argv.push_back(a.data());
            lengths.push_back(a.size());
        }
        auto* pending = new Done(std::move(done));
        if (redisAsyncCommandArgv(ac_, &ClientImpl::on_reply, pending, static_cast<int>(argv.size()), argv.data(),
                                  lengths.data()) != REDIS_OK) {
            Done d = std::move(*pending);
            delete pending;
            return net::post(strand_, [d = std::move(d), why = "Redis refused the command (" + address_.url() + ")"] {
                d(lost(why));
            });
        }
        sent_.push_back(Clock::now());
        if (sent_.size() == 1) watch();
    }

    static void on_reply(redisAsyncContext* c, void* reply, void* privdata) {
        auto* self = static_cast<ClientImpl*>(c->data);
        std::unique_ptr<Done> done(static_cast<Done*>(privdata));
        if (!self->sent_.empty()) self->sent_.pop_front();
        if (self->destroying_) return;
        try {
            Reply r = reply ? convert(static_cast<redisReply*>(reply))
                            : lost(self->why_.empty() ? "lost the connection to Redis at " + self->address_.url()
                                                      : self->why_);
            (*done)(std::move(r));
        } catch (const std::exception& e) {
            spdlog::error("a Redis answer's handler failed: {}", e.what());
        }
    }

    // A command without an answer in its time: the connection is dropped (everything waiting is
    // answered lost) and made again.
    void watch() {
        watchdog_.expires_after(options_.command_timeout / 4);
        watchdog_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
            if (ec || self->sent_.empty() || !self->ac_) return;
            if (Clock::now() - self->sent_.front() < self->options_.command_timeout) return self->watch();
            self->why_ = "no answer from Redis at " + self->address_.url() + " within " +
                         std::to_string(self->options_.command_timeout.count()) + " ms";
            redisAsyncFree(self->ac_);
        });
    }

    net::strand<net::io_context::executor_type> strand_;
    net::steady_timer retry_, watchdog_, connect_timer_;
    Address address_;
    ClientOptions options_;
    std::function<void(bool)> on_state_;
    redisAsyncContext* ac_ = nullptr;
    std::unique_ptr<net::posix::stream_descriptor> fd_;
    std::uint64_t generation_ = 0;
    bool want_read_ = false, want_write_ = false, reading_ = false, writing_ = false;
    std::atomic<bool> connected_{false};
    bool closed_ = false, destroying_ = false;
    int failures_ = 0;
    std::string why_;                // why the connection is being let go (an answer that timed out, a close)
    std::deque<Clock::time_point> sent_;  // when each command waiting for its answer was sent
};

}  // namespace

std::shared_ptr<Client> Client::make(net::io_context& io, Address address, ClientOptions options,
                                     std::function<void(bool)> on_state) {
    std::signal(SIGPIPE, SIG_IGN);
    auto c = std::make_shared<ClientImpl>(io, std::move(address), options, std::move(on_state));
    c->start();
    return c;
}

}  // namespace spookludo::server::redis
