// The event loop (one per process, on Asio's io_context): posted work, one-shot timers, the
// signals that end the program and SIGWINCH, bytes from the input as they arrive; and the
// steady and system clocks in milliseconds. The connections are made on it in
// net_websocket.cpp, the addresses parsed in net_address.cpp, the GET in net_http.cpp.
#include "net.h"

#include <unistd.h>

#include <array>
#include <csignal>
#include <thread>
#include <unordered_map>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "net_asio.h"

namespace spookludo::client {

namespace asio = boost::asio;

std::int64_t steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// ---- Event loop -------------------------------------------------------------------------------
struct EventLoop::Impl {
    asio::io_context io{1};
    asio::signal_set signals{io};
    asio::signal_set winch{io};
    std::unordered_map<TimerId, std::unique_ptr<asio::steady_timer>> timers;
    TimerId next_timer = 1;
    std::unique_ptr<asio::posix::stream_descriptor> input;
    std::array<char, 256> input_buffer{};
    std::thread input_thread;  // when the input cannot be polled (a regular file)

    void read_input(std::function<void(std::string_view)> on_bytes, std::function<void()> on_end) {
        input->async_read_some(asio::buffer(input_buffer),
                               [this, on_bytes, on_end](boost::system::error_code ec, std::size_t n) {
                                   if (ec) {
                                       if (ec != asio::error::operation_aborted) on_end();
                                       return;
                                   }
                                   on_bytes(std::string_view(input_buffer.data(), n));
                                   read_input(on_bytes, on_end);
                               });
    }
};

EventLoop::EventLoop() : impl_(std::make_unique<Impl>()) {}
EventLoop::~EventLoop() {
    if (impl_->input_thread.joinable()) impl_->input_thread.detach();  // blocked in read(); the process ends
}
void EventLoop::run() {
    impl_->io.run();
}
void EventLoop::stop() {
    impl_->io.stop();
}
bool EventLoop::stopped() const {
    return impl_->io.stopped();
}
void EventLoop::post(std::function<void()> fn) {
    asio::post(impl_->io, std::move(fn));
}

EventLoop::TimerId EventLoop::after(std::chrono::milliseconds delay, std::function<void()> fn) {
    const TimerId id = impl_->next_timer++;
    auto timer = std::make_unique<asio::steady_timer>(impl_->io, delay);
    timer->async_wait([this, id, fn = std::move(fn)](boost::system::error_code ec) {
        if (ec) return;
        impl_->timers.erase(id);
        fn();
    });
    impl_->timers.emplace(id, std::move(timer));
    return id;
}
void EventLoop::cancel(TimerId id) {
    if (auto it = impl_->timers.find(id); it != impl_->timers.end()) {
        it->second->cancel();
        impl_->timers.erase(it);
    }
}

void EventLoop::on_signal(std::function<void(int)> fn) {
    impl_->signals.add(SIGINT);
    impl_->signals.add(SIGTERM);
    impl_->signals.add(SIGHUP);
    struct Waiter {
        Impl* impl;
        std::function<void(int)> fn;
        void operator()(boost::system::error_code ec, int sig) {
            if (ec) return;
            fn(sig);
            impl->signals.async_wait(*this);
        }
    };
    impl_->signals.async_wait(Waiter{impl_.get(), std::move(fn)});
}

void EventLoop::on_resize(std::function<void()> fn) {
    impl_->winch.add(SIGWINCH);
    struct Waiter {
        Impl* impl;
        std::function<void()> fn;
        void operator()(boost::system::error_code ec, int) {
            if (ec) return;
            fn();
            impl->winch.async_wait(*this);
        }
    };
    impl_->winch.async_wait(Waiter{impl_.get(), std::move(fn)});
}

void EventLoop::watch_input(int fd, std::function<void(std::string_view)> on_bytes, std::function<void()> on_end) {
    const int copy = ::dup(fd);
    try {
        impl_->input = std::make_unique<asio::posix::stream_descriptor>(impl_->io, copy);
        impl_->read_input(std::move(on_bytes), std::move(on_end));
    } catch (const std::exception&) {
        // A regular file cannot be polled: read it on a thread and hand the bytes to the loop.
        impl_->input.reset();
        impl_->input_thread = std::thread([this, copy, on_bytes, on_end] {
            std::array<char, 256> buffer{};
            for (;;) {
                const auto n = ::read(copy, buffer.data(), buffer.size());
                if (n <= 0) break;
                std::string bytes(buffer.data(), static_cast<std::size_t>(n));
                post([on_bytes, bytes] { on_bytes(bytes); });
            }
            post(on_end);
        });
    }
}

namespace net_detail {

asio::io_context& io_context_of(EventLoop& loop) {
    return loop.impl().io;
}

}  // namespace net_detail

}  // namespace spookludo::client
