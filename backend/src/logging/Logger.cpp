#include "logging/Logger.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <hipdnn_data_sdk/logging/LogLevel.hpp>

namespace hipdnn_backend::logging {

namespace {

// One registration of a user callback. Deliveries hold it by shared_ptr; removing it marks it
// removed and waits until no other thread is running it, so that the caller may free the user
// data as soon as hipdnnSetUserLogCallback_ext returns.
struct Registration {
    hipdnnUserLogCallback_t callback;
    void* userHandle;
    hipdnnSeverity_t minLevel;
    hipdnnLogCallbackMode_t mode;
    // Guarded by CallbackRegistry's mutex.
    bool removed = false;
    int running = 0;
};

// The registrations the calling thread is running, innermost last (a callback may log).
thread_local std::vector<const Registration*> t_delivering;

class CallbackRegistry {
public:
    std::vector<std::shared_ptr<Registration>> snapshot() {
        std::lock_guard lock(_mutex);
        return _registrations;
    }

    // Calls the callback unless its registration has been removed.
    void deliver(const std::shared_ptr<Registration>& registration, hipdnnSeverity_t severity,
                 const char* message) {
        {
            std::lock_guard lock(_mutex);
            if (registration->removed) {
                return;
            }
            ++registration->running;
        }
        struct Finished {
            CallbackRegistry& registry;
            Registration& registration;
            ~Finished() {
                t_delivering.pop_back();
                {
                    std::lock_guard lock(registry._mutex);
                    --registration.running;
                }
                registry._idle.notify_all();
            }
        };
        t_delivering.push_back(registration.get());
        const Finished finished{*this, *registration};
        registration->callback(registration->userHandle, severity, message);
    }

    // Replaces (or, with minLevel OFF, removes) the registration of (callback, userHandle). The
    // old one is removed before this returns: `dropQueued` discards its queued messages and a
    // delivery in progress on another thread is waited for (one on this thread, that is a
    // callback changing registrations, is not: waiting for it would never end).
    template <class DropQueued>
    void set(const Registration& entry, DropQueued&& dropQueued) {
        std::unique_lock lock(_mutex);
        std::vector<std::shared_ptr<Registration>> removed;
        std::erase_if(_registrations, [&](const std::shared_ptr<Registration>& existing) {
            if (existing->callback != entry.callback || existing->userHandle != entry.userHandle) {
                return false;
            }
            existing->removed = true;
            removed.push_back(existing);
            return true;
        });
        if (entry.minLevel != HIPDNN_SEV_OFF) {
            _registrations.push_back(std::make_shared<Registration>(entry));
        }
        for (const auto& registration : removed) {
            dropQueued(registration.get());
        }
        _idle.wait(lock, [&] {
            return std::all_of(removed.begin(), removed.end(), [](const std::shared_ptr<Registration>& old) {
                return old->running == std::count(t_delivering.begin(), t_delivering.end(), old.get());
            });
        });
    }

private:
    std::mutex _mutex;
    std::condition_variable _idle;
    std::vector<std::shared_ptr<Registration>> _registrations;
};

struct QueuedMessage {
    std::shared_ptr<Registration> registration;
    hipdnnSeverity_t severity;
    std::string message;
};

// Delivers ASYNC user callbacks on one worker thread, in order. Started with the first
// asynchronous callback; drained and joined at exit.
class AsyncDelivery {
public:
    explicit AsyncDelivery(CallbackRegistry& registry) : _registry(registry) {}

    ~AsyncDelivery() {
        {
            std::lock_guard lock(_mutex);
            _stopping = true;
        }
        _wakeUp.notify_all();
        if (_worker.joinable()) {
            _worker.join();
        }
    }

    void push(QueuedMessage message) {
        {
            std::lock_guard lock(_mutex);
            if (!_worker.joinable()) {
                _worker = std::thread([this] { run(); });
            }
            _queue.push_back(std::move(message));
        }
        _wakeUp.notify_one();
    }

    // Discards the queued messages of a removed registration.
    void drop(const Registration* registration) {
        std::lock_guard lock(_mutex);
        std::erase_if(_queue, [registration](const QueuedMessage& queued) {
            return queued.registration.get() == registration;
        });
    }

private:
    void run() {
        std::unique_lock lock(_mutex);
        while (true) {
            _wakeUp.wait(lock, [this] { return _stopping || !_queue.empty(); });
            if (_queue.empty()) {
                return;  // stopping and drained
            }
            QueuedMessage next = std::move(_queue.front());
            _queue.pop_front();
            lock.unlock();
            _registry.deliver(next.registration, next.severity, next.message.c_str());
            lock.lock();
        }
    }

    CallbackRegistry& _registry;
    std::mutex _mutex;
    std::condition_variable _wakeUp;
    std::deque<QueuedMessage> _queue;
    bool _stopping = false;
    std::thread _worker;
};

// Appends formatted lines to a FILE* it owns. spdlog's basic_file_sink would create the
// file's missing parent directories, which HIPDNN_LOG_FILE must never do.
class AppendFileSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit AppendFileSink(std::FILE* file) : _file(file) {}
    ~AppendFileSink() override { std::fclose(_file); }
    AppendFileSink(const AppendFileSink&) = delete;
    AppendFileSink& operator=(const AppendFileSink&) = delete;

protected:
    void sink_it_(const spdlog::details::log_msg& message) override {
        spdlog::memory_buf_t formatted;
        formatter_->format(message, formatted);
        std::fwrite(formatted.data(), 1, formatted.size(), _file);
    }
    void flush_() override { std::fflush(_file); }

private:
    std::FILE* _file;
};

spdlog::level::level_enum toSpdlogLevel(hipdnnSeverity_t severity) {
    switch (severity) {
        case HIPDNN_SEV_INFO:
            return spdlog::level::info;
        case HIPDNN_SEV_WARN:
            return spdlog::level::warn;
        case HIPDNN_SEV_ERROR:
            return spdlog::level::err;
        case HIPDNN_SEV_FATAL:
            return spdlog::level::critical;
        case HIPDNN_SEV_OFF:
            break;
    }
    return spdlog::level::off;
}

class LoggerState {
public:
    static LoggerState& instance() {
        static LoggerState state;
        return state;
    }

    std::atomic<hipdnnSeverity_t> level{hipdnn_data_sdk::logging::logLevelFromEnvironment()};

    void emit(hipdnnSeverity_t severity, std::string_view message) {
        {
            std::lock_guard lock(_mutex);
            sinkLocked().log(toSpdlogLevel(severity), message);
        }
        std::string text;
        for (const auto& registration : _callbacks.snapshot()) {
            if (severity < registration->minLevel) {
                continue;
            }
            if (text.empty()) {
                text.assign(message);
            }
            if (registration->mode == HIPDNN_LOG_CALLBACK_ASYNC) {
                _async.push({registration, severity, text});
            } else {
                _callbacks.deliver(registration, severity, text.c_str());
            }
        }
    }

    void setUserCallback(const Registration& entry) {
        _callbacks.set(entry, [this](const Registration* removed) { _async.drop(removed); });
    }

private:
    // The sink opens on the first emitted message so that a disabled logger never touches
    // HIPDNN_LOG_FILE. The file is opened for appending (created when missing, its directory
    // never); when that fails the lines go to stderr, after one line saying why.
    spdlog::logger& sinkLocked() {
        if (!_sink) {
            spdlog::sink_ptr sink;
            std::string fallbackReason;
            const char* file = std::getenv("HIPDNN_LOG_FILE");
            if (file != nullptr && *file != '\0') {
                if (std::FILE* stream = std::fopen(file, "ae")) {
                    sink = std::make_shared<AppendFileSink>(stream);
                } else {
                    fallbackReason = fmt::format("Cannot open HIPDNN_LOG_FILE [{}]: {}; logging to stderr",
                                                 file, std::strerror(errno));
                }
            }
            if (!sink) {
                sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
            }
            _sink = std::make_unique<spdlog::logger>("hipdnn_backend", std::move(sink));
            _sink->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [tid %t] [%l] %v");
            _sink->set_level(spdlog::level::trace);
            _sink->flush_on(spdlog::level::trace);
            if (!fallbackReason.empty()) {
                _sink->log(spdlog::level::err, fallbackReason);
            }
        }
        return *_sink;
    }

    std::mutex _mutex;
    std::unique_ptr<spdlog::logger> _sink;
    CallbackRegistry _callbacks;
    // Declared last so that it is destroyed first: the messages still queued at exit are
    // delivered while the registry and the sink (a callback may log) are alive.
    AsyncDelivery _async{_callbacks};
};

}  // namespace

bool isEnabled(hipdnnSeverity_t severity) noexcept {
    const hipdnnSeverity_t level = LoggerState::instance().level.load(std::memory_order_relaxed);
    return level != HIPDNN_SEV_OFF && severity >= level && severity != HIPDNN_SEV_OFF;
}

hipdnnSeverity_t globalLevel() noexcept {
    return LoggerState::instance().level.load();
}

void setGlobalLevel(hipdnnSeverity_t level) noexcept {
    LoggerState::instance().level.store(level);
}

void emit(hipdnnSeverity_t severity, std::string_view message) {
    try {
        LoggerState::instance().emit(severity, message);
    } catch (...) {
        // Logging must never turn a successful call into a failure (e.g. unwritable log file).
    }
}

void setUserCallback(hipdnnUserLogCallback_t callback, hipdnnSeverity_t minLevel,
                     hipdnnLogCallbackMode_t mode, void* userHandle) {
    LoggerState::instance().setUserCallback({callback, userHandle, minLevel, mode});
}

}  // namespace hipdnn_backend::logging
