// BlobcRuntime.cs - blobc's C# runtime: what code from
// `blobc gen cs --runtime standalone` reads .blob files with, in any .NET
// or Mono program (a Godot C# project, a build tool), without Unity's
// packages. Copy it into the project beside the generated files.
//
// BlobArray<T>, BlobPtr<T> and BlobString have the layout and the
// accessors of Unity.Entities' types of the same names, so the generated
// structs read the same way under either runtime: an offset is relative to
// the address of the offset field itself, 0 is empty or null, a string's
// array counts its NUL. Reach the values through refs (`ref Level l = ref
// blob.Value;`): a struct copied out of the blob has lost its offsets'
// base.
//
// BlobAsset<T>.Open checks a .blob's header as the C runtime's
// blobc_rt_open does (magic, version, header fields, sizes, the root
// type's layout hash) and copies the data section into 16-byte aligned
// memory it owns until Dispose. It does not walk the data: verify files
// from outside the pipeline with `blobc verify` (or the library) first.
//
// Written for C# 7 (Mono's mcs) and newer compilers: typed views of raw
// memory go through Span<T>. Every outside name is written from
// global::, so that no type of a generated file (a schema type `Span`)
// hides one.

namespace Blobc
{
    /// <summary>Typed references into raw memory.</summary>
    public static unsafe class BlobMemory
    {
        /// <summary>The T at ptr.</summary>
        public static ref T AsRef<T>(void* ptr) where T : struct
        {
            return ref new global::System.Span<T>(ptr, 1)[0];
        }
    }

    /// <summary>A `*T`: one T at an offset from this field; 0 is null.</summary>
    public unsafe struct BlobPtr<T> where T : struct
    {
        internal int m_OffsetPtr;

        /// <summary>Whether the pointer is not null.</summary>
        public bool IsValid { get { return m_OffsetPtr != 0; } }

        /// <summary>The target; throws InvalidOperationException for null.</summary>
        public ref T Value
        {
            get
            {
                if (m_OffsetPtr == 0) throw new global::System.InvalidOperationException("the BlobPtr is null");
                fixed (int* p = &m_OffsetPtr)
                {
                    return ref BlobMemory.AsRef<T>((byte*)p + m_OffsetPtr);
                }
            }
        }

        /// <summary>The target's address, or null.</summary>
        public void* GetUnsafePtr()
        {
            if (m_OffsetPtr == 0) return null;
            fixed (int* p = &m_OffsetPtr)
            {
                return (byte*)p + m_OffsetPtr;
            }
        }
    }

    /// <summary>A `[T]`: Length items at an offset from this field.</summary>
    public unsafe struct BlobArray<T> where T : struct
    {
        internal int m_OffsetPtr;
        internal int m_Length;

        /// <summary>The number of items.</summary>
        public int Length { get { return m_OffsetPtr != 0 && m_Length > 0 ? m_Length : 0; } }

        /// <summary>The first item's address, or null when empty.</summary>
        public void* GetUnsafePtr()
        {
            if (m_OffsetPtr == 0) return null;
            fixed (int* p = &m_OffsetPtr)
            {
                return (byte*)p + m_OffsetPtr;
            }
        }

        /// <summary>Item i; throws IndexOutOfRangeException outside 0..Length-1.</summary>
        public ref T this[int index]
        {
            get
            {
                if ((uint)index >= (uint)Length)
                    throw new global::System.IndexOutOfRangeException("index " + index + " is outside the array of " + Length);
                fixed (int* p = &m_OffsetPtr)
                {
                    return ref new global::System.Span<T>((byte*)p + m_OffsetPtr, m_Length)[index];
                }
            }
        }

        /// <summary>A copy of the items (of scalars, enums and structs without offsets).</summary>
        public T[] ToArray()
        {
            T[] a = new T[Length];
            for (int i = 0; i < a.Length; i++) a[i] = this[i];
            return a;
        }
    }

    /// <summary>A `string`: UTF-8 bytes and a NUL.</summary>
    public unsafe struct BlobString
    {
        internal BlobArray<byte> Data;

        /// <summary>The length in bytes, without the NUL.</summary>
        public int Length { get { return global::System.Math.Max(0, Data.Length - 1); } }

        /// <summary>The text.</summary>
        public new string ToString()
        {
            return Length == 0 ? "" : global::System.Text.Encoding.UTF8.GetString((byte*)Data.GetUnsafePtr(), Length);
        }
    }

    /// <summary>Why Open refused a file: the C runtime's blobc_rt_status codes.</summary>
    public enum BlobStatus
    {
        /// <summary>Opened.</summary>
        Ok = 0,
        /// <summary>Shorter than the header or its sections.</summary>
        Truncated = 1,
        /// <summary>Not a .blob.</summary>
        BadMagic = 2,
        /// <summary>A format version this runtime does not know.</summary>
        BadVersion = 3,
        /// <summary>Header fields inconsistent.</summary>
        BadHeader = 4,
        /// <summary>Baked for a different layout of the root type.</summary>
        SchemaHash = 9,
        /// <summary>Data smaller than the root, or over 2 GiB - 1.</summary>
        DataSize = 23,
        /// <summary>A null file.</summary>
        BadArgument = 100,
    }

    /// <summary>Thrown by Open for a file it refuses.</summary>
    public class BlobException : global::System.Exception
    {
        /// <summary>Why the file was refused.</summary>
        public readonly BlobStatus Status;

        /// <summary>A refusal for this reason.</summary>
        public BlobException(BlobStatus status) : base(Describe(status)) { Status = status; }

        /// <summary>The words for a status, as the C runtime says them.</summary>
        public static string Describe(BlobStatus status)
        {
            switch (status)
            {
                case BlobStatus.Ok: return "ok";
                case BlobStatus.Truncated: return "file is shorter than its header says";
                case BlobStatus.BadMagic: return "not a blob file (bad magic number)";
                case BlobStatus.BadVersion: return "unsupported blob format version";
                case BlobStatus.BadHeader: return "inconsistent blob header";
                case BlobStatus.SchemaHash: return "blob was baked for a different schema layout";
                case BlobStatus.DataSize: return "blob data is smaller than its root type or too large";
                case BlobStatus.BadArgument: return "null buffer or argument";
            }
            return "unknown blob status";
        }
    }

    /// <summary>The data section of a .blob whose root is T, in memory it owns.</summary>
    public sealed unsafe class BlobAsset<T> : global::System.IDisposable where T : struct
    {
        const int HeaderSize = 96, Alignment = 16;
        const uint FormatVersion = 1, MaxDataSize = 0x7fffffff;
        static readonly byte[] Magic = { 0x89, (byte)'B', (byte)'L', (byte)'O', (byte)'B', (byte)'C', (byte)'\r', (byte)'\n' };

        global::System.IntPtr block;
        byte* data;

        /// <summary>The data section's size in bytes.</summary>
        public int Size { get; private set; }

        /// <summary>The layout hash the file records for its root.</summary>
        public ulong SchemaHash { get; private set; }

        BlobAsset() { }

        /// <summary>The root; throws ObjectDisposedException after Dispose.</summary>
        public ref T Value
        {
            get
            {
                if (data == null) throw new global::System.ObjectDisposedException("BlobAsset");
                return ref BlobMemory.AsRef<T>(data);
            }
        }

        /// <summary>The data section's address (valid until Dispose).</summary>
        public void* GetUnsafePtr() { return data; }

        static uint U32(byte[] b, int at)
        {
            return (uint)(b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24);
        }

        static ulong U64(byte[] b, int at) { return U32(b, at) | (ulong)U32(b, at + 4) << 32; }

        /// <summary>Checks the header of a .blob file image; schemaHash 0 accepts any root.</summary>
        public static BlobStatus Check(byte[] file, ulong schemaHash, int rootSize, out int dataSize)
        {
            dataSize = 0;
            if (file == null) return BlobStatus.BadArgument;
            for (int i = 0; i < Magic.Length; i++)
            {
                if (i == file.Length) return BlobStatus.Truncated;
                if (file[i] != Magic[i]) return BlobStatus.BadMagic;
            }
            if (file.Length < 16) return BlobStatus.Truncated;
            if (U32(file, 8) != FormatVersion) return BlobStatus.BadVersion;
            if (U32(file, 12) != HeaderSize) return BlobStatus.BadHeader;
            if (file.Length < HeaderSize) return BlobStatus.Truncated;
            if (U32(file, 72) != 0 || U32(file, 76) != 0) return BlobStatus.BadHeader;
            ulong dataOffset = U64(file, 16), size = U64(file, 24), fileSize = U64(file, 80);
            if (fileSize > (ulong)file.Length) return BlobStatus.Truncated;
            if (dataOffset != HeaderSize) return BlobStatus.BadHeader;
            if (size == 0 || size > MaxDataSize) return BlobStatus.DataSize;
            if (fileSize < dataOffset || size > fileSize - dataOffset) return BlobStatus.Truncated;
            if (schemaHash != 0 && U64(file, 40) != schemaHash) return BlobStatus.SchemaHash;
            if (size < (ulong)rootSize) return BlobStatus.DataSize;
            dataSize = (int)size;
            return BlobStatus.Ok;
        }

        /// <summary>Opens a .blob file image (see Check), or says why not.</summary>
        public static BlobStatus TryOpen(byte[] file, ulong schemaHash, int rootSize, out BlobAsset<T> asset)
        {
            asset = null;
            int size;
            BlobStatus st = Check(file, schemaHash, rootSize, out size);
            if (st != BlobStatus.Ok) return st;
            BlobAsset<T> a = new BlobAsset<T>();
            a.block = global::System.Runtime.InteropServices.Marshal.AllocHGlobal(size + Alignment - 1);
            long at = ((long)a.block + Alignment - 1) & ~(long)(Alignment - 1);
            global::System.Runtime.InteropServices.Marshal.Copy(file, HeaderSize, (global::System.IntPtr)at, size);
            a.data = (byte*)at;
            a.Size = size;
            a.SchemaHash = U64(file, 40);
            asset = a;
            return BlobStatus.Ok;
        }

        /// <summary>TryOpen that throws BlobException.</summary>
        public static BlobAsset<T> Open(byte[] file, ulong schemaHash, int rootSize)
        {
            BlobAsset<T> a;
            BlobStatus st = TryOpen(file, schemaHash, rootSize, out a);
            if (st != BlobStatus.Ok) throw new BlobException(st);
            return a;
        }

        /// <summary>Frees the data; refs taken from Value must not be used after.</summary>
        public void Dispose()
        {
            if (block != global::System.IntPtr.Zero) global::System.Runtime.InteropServices.Marshal.FreeHGlobal(block);
            block = global::System.IntPtr.Zero;
            data = null;
            global::System.GC.SuppressFinalize(this);
        }

        /// <summary>Frees the data of an asset that was not disposed.</summary>
        ~BlobAsset()
        {
            if (block != global::System.IntPtr.Zero) global::System.Runtime.InteropServices.Marshal.FreeHGlobal(block);
        }
    }
}
