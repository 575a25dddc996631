/*
 * blobc/blob.hpp - the header-only C++17 runtime under the headers of
 * `blobc gen cpp`: the offset-field types of a blob as C++ views that read
 * the bytes in place. A `[T]` field is a blobc::Vector<T> (a random-access
 * range), a `[T; N]` a blobc::Fixed<T, N>, a `string` a blobc::String (a
 * std::string_view), a `*T` or a `&T` a blobc::Ptr<T>, a `bool` a
 * blobc::Bool. A `[T]` of a struct with a @key field has find(key). A
 * map `[K: V]` is a blobc::Map<K, V> (entries in key order, find(key)),
 * a `?T` a blobc::Optional<T>, an `any` a blobc::Any.
 *
 * No exceptions, no allocation, no RTTI: usable with -fno-exceptions
 * -fno-rtti. Indexing is unchecked, like std::vector's operator[]; blobs
 * from outside the program are verified first (docs/CODEGEN.md, "C++").
 * Everything here is in namespace blobc, over the C runtime <blobc/blob.h>.
 *
 * Stability: stable: a minor release keeps every declaration here
 * source-compatible.
 */
#ifndef BLOBC_BLOB_HPP
#define BLOBC_BLOB_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>

#include "blob.h"

namespace blobc {

/* The address `offset` bytes from the offset field at `field`, or nullptr. */
inline const void *resolve(const std::int32_t &field) noexcept {
    return field ? static_cast<const void *>(reinterpret_cast<const char *>(&field) + field) : nullptr;
}

/* `bool`: one byte holding 0 or 1, read as a byte so that another value
 * in an unverified blob is not undefined behaviour. */
class Bool {
public:
    Bool(const Bool &) = delete;
    Bool &operator=(const Bool &) = delete;
    constexpr bool get() const noexcept { return byte_ != 0; }
    constexpr operator bool() const noexcept { return byte_ != 0; }

private:
    std::uint8_t byte_;
};

/* `string`: UTF-8 bytes and a NUL out of line. */
class String {
public:
    String(const String &) = delete;
    String &operator=(const String &) = delete;
    /* Length in bytes, without the NUL. */
    std::size_t size() const noexcept {
        return offset_ && length_ > 0 ? static_cast<std::size_t>(length_) - 1 : 0;
    }
    bool empty() const noexcept { return size() == 0; }
    /* NUL-terminated; "" for a null string (never in a valid blob). */
    const char *c_str() const noexcept {
        const void *p = resolve(offset_);
        return p ? static_cast<const char *>(p) : "";
    }
    std::string_view view() const noexcept { return std::string_view(c_str(), size()); }
    operator std::string_view() const noexcept { return view(); }

private:
    std::int32_t offset_;
    std::int32_t length_;
};

/* `*T`: one T out of line, or null. */
template <typename T>
class Ptr {
public:
    Ptr(const Ptr &) = delete;
    Ptr &operator=(const Ptr &) = delete;
    const T *get() const noexcept { return static_cast<const T *>(resolve(offset_)); }
    explicit operator bool() const noexcept { return offset_ != 0; }

private:
    std::int32_t offset_;
};

/* How an item of an array reads: numbers and enums by value, a bool as
 * bool, a string as std::string_view, a *T as const T *, the rest (structs,
 * unions, nested arrays) by reference. */
template <typename T, typename = void>
struct item {
    using type = const T &;
    static constexpr const T &get(const T &v) noexcept { return v; }
};
template <typename T>
struct item<T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>>> {
    using type = T;
    static constexpr T get(const T &v) noexcept { return v; }
};
template <>
struct item<Bool> {
    using type = bool;
    static constexpr bool get(const Bool &v) noexcept { return v.get(); }
};
template <>
struct item<String> {
    using type = std::string_view;
    static std::string_view get(const String &v) noexcept { return v.view(); }
};
template <typename T>
struct item<Ptr<T>> {
    using type = const T *;
    static const T *get(const Ptr<T> &v) noexcept { return v.get(); }
};

/* The key of a struct with a @key field: `type` (a number, an enum or
 * std::string_view) and `get(item)`. The header of `blobc gen cpp`
 * specializes it for each such struct; Vector<T>::find needs it. */
template <typename T>
struct key_of {};

/* The item of a[0..n), sorted by key_of_item without repeats, whose key
 * is `key`, or nullptr: a keyed [T]'s search and a map's. */
template <typename T, typename Key, typename KeyOf>
const T *sorted_find(const T *a, std::size_t n, Key key, KeyOf key_of_item) noexcept {
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
        std::size_t mid = lo + (hi - lo) / 2;
        Key k = key_of_item(a[mid]);
        if (k < key) lo = mid + 1;
        else if (key < k) hi = mid;
        else return &a[mid];
    }
    return nullptr;
}

/* A random-access iterator over stored items, yielding them as item<T>. */
template <typename T>
class Iterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::remove_cv_t<std::remove_reference_t<typename item<T>::type>>;
    using difference_type = std::ptrdiff_t;
    using reference = typename item<T>::type;
    using pointer = void;

    constexpr Iterator() noexcept : p_(nullptr) {}
    constexpr explicit Iterator(const T *p) noexcept : p_(p) {}
    constexpr reference operator*() const noexcept { return item<T>::get(*p_); }
    constexpr reference operator[](difference_type n) const noexcept { return item<T>::get(p_[n]); }
    constexpr Iterator &operator++() noexcept { ++p_; return *this; }
    constexpr Iterator operator++(int) noexcept { Iterator r = *this; ++p_; return r; }
    constexpr Iterator &operator--() noexcept { --p_; return *this; }
    constexpr Iterator operator--(int) noexcept { Iterator r = *this; --p_; return r; }
    constexpr Iterator &operator+=(difference_type n) noexcept { p_ += n; return *this; }
    constexpr Iterator &operator-=(difference_type n) noexcept { p_ -= n; return *this; }
    friend constexpr Iterator operator+(Iterator i, difference_type n) noexcept { return i += n; }
    friend constexpr Iterator operator+(difference_type n, Iterator i) noexcept { return i += n; }
    friend constexpr Iterator operator-(Iterator i, difference_type n) noexcept { return i -= n; }
    friend constexpr difference_type operator-(Iterator a, Iterator b) noexcept { return a.p_ - b.p_; }
    friend constexpr bool operator==(Iterator a, Iterator b) noexcept { return a.p_ == b.p_; }
    friend constexpr bool operator!=(Iterator a, Iterator b) noexcept { return a.p_ != b.p_; }
    friend constexpr bool operator<(Iterator a, Iterator b) noexcept { return a.p_ < b.p_; }
    friend constexpr bool operator>(Iterator a, Iterator b) noexcept { return a.p_ > b.p_; }
    friend constexpr bool operator<=(Iterator a, Iterator b) noexcept { return a.p_ <= b.p_; }
    friend constexpr bool operator>=(Iterator a, Iterator b) noexcept { return a.p_ >= b.p_; }

private:
    const T *p_;
};

/* `[T]`: items out of line; the field itself is the range. */
template <typename T>
class Vector {
public:
    using iterator = Iterator<T>;
    using const_iterator = Iterator<T>;
    Vector(const Vector &) = delete;
    Vector &operator=(const Vector &) = delete;
    std::size_t size() const noexcept {
        return offset_ && length_ > 0 ? static_cast<std::size_t>(length_) : 0;
    }
    bool empty() const noexcept { return size() == 0; }
    /* The stored items (nullptr when empty). */
    const T *data() const noexcept { return static_cast<const T *>(resolve(offset_)); }
    typename item<T>::type operator[](std::size_t i) const noexcept { return item<T>::get(data()[i]); }
    typename item<T>::type front() const noexcept { return (*this)[0]; }
    typename item<T>::type back() const noexcept { return (*this)[size() - 1]; }
    iterator begin() const noexcept { return iterator(data()); }
    iterator end() const noexcept { return iterator(data() + size()); }
    /* Items of a struct with a @key field: the item whose key is `key`, or
     * nullptr, by binary search (the blob keeps such an array sorted by
     * key, strings by bytes; verify checks it). */
    template <typename U = T>
    const T *find(typename key_of<U>::type key) const noexcept {
        return sorted_find(data(), size(), key, [](const T &v) { return key_of<U>::get(v); });
    }

private:
    std::int32_t offset_;
    std::int32_t length_;
};

/* `[T; N]`: N items inline, like std::array. */
template <typename T, std::size_t N>
class Fixed {
public:
    using iterator = Iterator<T>;
    using const_iterator = Iterator<T>;
    Fixed(const Fixed &) = delete;
    Fixed &operator=(const Fixed &) = delete;
    static constexpr std::size_t size() noexcept { return N; }
    static constexpr bool empty() noexcept { return N == 0; }
    constexpr const T *data() const noexcept { return items_; }
    constexpr typename item<T>::type operator[](std::size_t i) const noexcept { return item<T>::get(items_[i]); }
    constexpr iterator begin() const noexcept { return iterator(items_); }
    constexpr iterator end() const noexcept { return iterator(items_ + N); }

private:
    T items_[N];
};

/* An entry of a map [K: V]: its key and value, read as items are. */
template <typename K, typename V>
class Entry {
public:
    Entry(const Entry &) = delete;
    Entry &operator=(const Entry &) = delete;
    typename item<K>::type key() const noexcept { return item<K>::get(key_); }
    typename item<V>::type value() const noexcept { return item<V>::get(value_); }

private:
    K key_;
    V value_;
};

/* `[K: V]`: the entries out of line, sorted by key without repeats (a
 * string's by its bytes, a shorter prefix first; numbers and enums by
 * value), so find is a binary search. Iterates entries in key order. */
template <typename K, typename V>
class Map {
public:
    using entry = Entry<K, V>;
    using key_type = typename item<K>::type;
    using iterator = Iterator<entry>;
    using const_iterator = Iterator<entry>;
    Map(const Map &) = delete;
    Map &operator=(const Map &) = delete;
    std::size_t size() const noexcept {
        return offset_ && length_ > 0 ? static_cast<std::size_t>(length_) : 0;
    }
    bool empty() const noexcept { return size() == 0; }
    const entry *data() const noexcept { return static_cast<const entry *>(resolve(offset_)); }
    /* Entry i in key order (i < size()). */
    const entry &operator[](std::size_t i) const noexcept { return data()[i]; }
    /* Entry i, or nullptr past the end. */
    const entry *at(std::size_t i) const noexcept { return i < size() ? &data()[i] : nullptr; }
    iterator begin() const noexcept { return iterator(data()); }
    iterator end() const noexcept { return iterator(data() + size()); }
    /* The entry whose key is `key`, or nullptr. */
    const entry *find(key_type key) const noexcept {
        return sorted_find(data(), size(), key, [](const entry &e) { return e.key(); });
    }
    bool contains(key_type key) const noexcept { return find(key) != nullptr; }

private:
    std::int32_t offset_;
    std::int32_t length_;
};

/* `?T`: a T and whether it is there (absent: every byte 0). */
template <typename T>
class Optional {
public:
    Optional(const Optional &) = delete;
    Optional &operator=(const Optional &) = delete;
    bool has_value() const noexcept { return has_ != 0; }
    explicit operator bool() const noexcept { return has_ != 0; }
    /* The value as an item reads (zero, empty or null when absent). */
    typename item<T>::type value() const noexcept { return item<T>::get(value_); }
    /* The stored value, or nullptr when absent. */
    const T *get() const noexcept { return has_ ? &value_ : nullptr; }

private:
    T value_;
    std::uint8_t has_;
};

/* `any`: a free-form value (blobc_rt_any): null, a bool, an integer, a
 * float, a string, a list of any or a mapping of strings to any. Asking
 * for another kind than it holds gives 0, "", or nullptr. */
class Any {
public:
    enum class Kind : std::uint32_t { null = 0, boolean, integer, uinteger, number, string, list, map };
    Any(const Any &) = delete;
    Any &operator=(const Any &) = delete;
    Kind kind() const noexcept { return static_cast<Kind>(v_.kind); }
    bool is_null() const noexcept { return v_.kind == BLOBC_RT_ANY_NULL; }
    bool as_bool() const noexcept { return blobc_rt_any_as_bool(&v_) != 0; }
    std::int64_t as_i64() const noexcept { return blobc_rt_any_as_i64(&v_); }
    std::uint64_t as_u64() const noexcept { return blobc_rt_any_as_u64(&v_); }
    double as_f64() const noexcept { return blobc_rt_any_as_f64(&v_); }
    std::string_view as_string() const noexcept {
        std::size_t n = 0;
        const char *s = blobc_rt_any_as_string(&v_, &n);
        return s ? std::string_view(s, n) : std::string_view();
    }
    /* A list's items or a mapping's entries; 0 for the rest. */
    std::size_t size() const noexcept {
        return v_.kind == BLOBC_RT_ANY_MAP ? blobc_rt_any_map_count(&v_) : blobc_rt_any_list_count(&v_);
    }
    /* Item i of a list, or nullptr. */
    const Any *at(std::size_t i) const noexcept { return wrap(blobc_rt_any_list_item(&v_, i)); }
    /* Key and value i of a mapping (in key order), or "" and nullptr. */
    std::string_view key(std::size_t i) const noexcept {
        std::size_t n = 0;
        const char *s = blobc_rt_any_map_key(&v_, i, &n);
        return s ? std::string_view(s, n) : std::string_view();
    }
    const Any *value(std::size_t i) const noexcept { return wrap(blobc_rt_any_map_value(&v_, i)); }
    /* The value of a mapping under key, by binary search, or nullptr. */
    const Any *find(std::string_view key) const noexcept {
        return wrap(blobc_rt_any_map_find(&v_, key.data(), key.size()));
    }
    const blobc_rt_any &raw() const noexcept { return v_; }

private:
    /* Any is exactly a blobc_rt_any (asserted below), so the C walker's
     * answers are read through it. */
    static const Any *wrap(const blobc_rt_any *p) noexcept { return reinterpret_cast<const Any *>(p); }
    blobc_rt_any v_;
};

static_assert(sizeof(Bool) == 1 && alignof(Bool) == 1, "blobc::Bool must be one byte");
static_assert(sizeof(Any) == 12 && alignof(Any) == 4 && std::is_standard_layout_v<Any>, "blobc::Any must be blobc_rt_any");
static_assert(sizeof(Optional<std::int32_t>) == 8, "blobc::Optional<T> must be T and a byte, padded");
static_assert(sizeof(Map<String, std::int32_t>) == 8, "blobc::Map must be {i32, i32}");
static_assert(sizeof(String) == 8 && alignof(String) == 4, "blobc::String must be {i32, i32}");
static_assert(sizeof(Ptr<void>) == 4 && alignof(Ptr<void>) == 4, "blobc::Ptr must be {i32}");
static_assert(sizeof(Vector<int>) == 8 && alignof(Vector<int>) == 4, "blobc::Vector must be {i32, i32}");
static_assert(sizeof(Fixed<float, 3>) == 12, "blobc::Fixed<T, N> must be N items");

} // namespace blobc

namespace blobc {

/* The opens of a generated class T (T::open, T::open_raw): the header or
 * the raw section checked for what reading T in place needs. */
template <typename T>
const T *open(const void *data, std::size_t size, blobc_rt_status *why) noexcept {
    blobc_rt_view v;
    blobc_rt_status s = blobc_rt_open(data, size, T::schema_hash, sizeof(T), &v);
    if (why) *why = s;
    return s == BLOBC_RT_OK ? static_cast<const T *>(v.data) : nullptr;
}

template <typename T>
const T *open_raw(const void *data, std::size_t size, blobc_rt_status *why) noexcept {
    blobc_rt_view v;
    blobc_rt_status s = blobc_rt_open_raw(data, size, sizeof(T), &v);
    if (why) *why = s;
    return s == BLOBC_RT_OK ? static_cast<const T *>(v.data) : nullptr;
}

} // namespace blobc

#endif

/* With the library linked in (define BLOBC_WITH_LIBRARY), the verified
 * open behind T::open_verified, over the library's blobc_rt_open_checked
 * (blobc/blobfile.h); outside the main guard so that it appears even when
 * this header was included before BLOBC_WITH_LIBRARY was defined. */
#if defined(BLOBC_WITH_LIBRARY) && !defined(BLOBC_BLOB_HPP_WITH_LIBRARY)
#define BLOBC_BLOB_HPP_WITH_LIBRARY
#include "blobfile.h"

namespace blobc {

template <typename T>
const T *open_verified(const void *data, std::size_t size, const char *schema_text, std::size_t text_len,
                       const char *type_name, blobc_error *err) noexcept {
    blobc_rt_view v;
    if (blobc_rt_open_checked(data, size, schema_text, text_len, type_name, T::schema_hash, sizeof(T), &v,
                              err) != BLOBC_OK)
        return nullptr;
    return static_cast<const T *>(v.data);
}

} // namespace blobc
#endif
