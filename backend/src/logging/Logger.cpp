#include "logging/Logger.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/logger.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <hipdnn_data_sdk/logging/LogLevel.hpp>

namespace hipdnn_backend::logging {

namespace {

struct UserCallback {
    hipdnnUserLogCallback_t callback;
    void* userHandle;
    hipdnnSeverity_t minLevel;
    hipdnnLogCallbackMode_t mode;
};

struct QueuedMessage {
    hipdnnUserLogCallback_t callback;
    void* userHandle;
    hipdnnSeverity_t severity;
    std::string message;
};

// Delivers ASYNC user callbacks on one worker thread, in order. Started with the first
// asynchronous callback; drained and joined at exit.
class AsyncDelivery {
public:
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
            next.callback(next.userHandle, next.severity, next.message.c_str());
            lock.lock();
        }
    }

    std::mutex _mutex;
    std::condition_variable _wakeUp;
    std::deque<QueuedMessage> _queue;
    bool _stopping = false;
    std::thread _worker;
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
        std::vector<UserCallback> callbacks;
        {
            std::lock_guard lock(_mutex);
            sinkLocked().log(toSpdlogLevel(severity), message);
            callbacks = _callbacks;
        }
        for (const UserCallback& entry : callbacks) {
            if (severity < entry.minLevel) {
                continue;
            }
            if (entry.mode == HIPDNN_LOG_CALLBACK_ASYNC) {
                _async.push({entry.callback, entry.userHandle, severity, std::string(message)});
            } else {
                const std::string text(message);
                entry.callback(entry.userHandle, severity, text.c_str());
            }
        }
    }

    void setUserCallback(const UserCallback& entry) {
        std::lock_guard lock(_mutex);
        auto sameKey = [&](const UserCallback& existing) {
            return existing.callback == entry.callback && existing.userHandle == entry.userHandle;
        };
        _callbacks.erase(std::remove_if(_callbacks.begin(), _callbacks.end(), sameKey), _callbacks.end());
        if (entry.minLevel != HIPDNN_SEV_OFF) {
            _callbacks.push_back(entry);
        }
    }

private:
    // The sink opens on the first emitted message so that a disabled logger never touches
    // HIPDNN_LOG_FILE.
    spdlog::logger& sinkLocked() {
        if (!_sink) {
            spdlog::sink_ptr sink;
            const char* file = std::getenv("HIPDNN_LOG_FILE");
            if (file != nullptr && *file != '\0') {
                sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file, /*truncate=*/false);
            } else {
                sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
            }
            _sink = std::make_unique<spdlog::logger>("hipdnn_backend", std::move(sink));
            _sink->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [tid %t] [%l] %v");
            _sink->set_level(spdlog::level::trace);
            _sink->flush_on(spdlog::level::trace);
        }
        return *_sink;
    }

    // Declared before the mutex-guarded state so that it is destroyed last: queued messages
    // are still delivered during shutdown.
    AsyncDelivery _async;
    std::mutex _mutex;
    std::unique_ptr<spdlog::logger> _sink;
    std::vector<UserCallback> _callbacks;
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
