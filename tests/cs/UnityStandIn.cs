// A stand-in for the parts of Unity's packages that code from
// `blobc gen cs` uses, so the tests can compile and run it with Mono:
// Unity.Entities' BlobArray<T>, BlobPtr<T>, BlobString and
// BlobAssetReference<T>.TryRead, UnsafeUtility.AsRef, and the
// Unity.Mathematics vectors. Same field layout and the same accessor
// semantics as com.unity.entities (Unity.Entities/Blobs.cs): offsets are
// relative to the address of the offset field itself, a BlobString's
// array counts its NUL, TryRead compares the int32 version, reads the
// 32-byte BlobAssetHeader and then Length bytes into 16-byte aligned memory.
// Written for C# 7 (Mono's mcs): no `unmanaged` constraint, so typed views
// of raw memory go through Span<T>.
using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Unity.Collections.LowLevel.Unsafe
{
    public static unsafe class UnsafeUtility
    {
        public static ref T AsRef<T>(void* ptr) where T : struct
        {
            return ref new Span<T>(ptr, 1)[0];
        }

        public static ref T ArrayElementAsRef<T>(void* ptr, int index) where T : struct
        {
            return ref new Span<T>(ptr, index + 1)[index];
        }
    }
}

namespace Unity.Entities
{
    using Unity.Collections.LowLevel.Unsafe;

    // Unity's blob-safety analysis refuses copies of structs marked with
    // it; here it only has to exist (Layout.cs checks where it is).
    public class MayOnlyLiveInBlobStorageAttribute : Attribute
    {
    }

    public unsafe struct BlobPtr<T> where T : struct
    {
        internal int m_OffsetPtr;

        public bool IsValid { get { return m_OffsetPtr != 0; } }

        public ref T Value
        {
            get
            {
                if (!IsValid) throw new InvalidOperationException("The accessed BlobPtr hasn't been allocated.");
                fixed (int* thisPtr = &m_OffsetPtr)
                {
                    return ref UnsafeUtility.AsRef<T>((byte*)thisPtr + m_OffsetPtr);
                }
            }
        }

        public void* GetUnsafePtr()
        {
            if (m_OffsetPtr == 0) return null;
            fixed (int* thisPtr = &m_OffsetPtr)
            {
                return (byte*)thisPtr + m_OffsetPtr;
            }
        }
    }

    public unsafe struct BlobArray<T> where T : struct
    {
        internal int m_OffsetPtr;
        internal int m_Length;

        public int Length { get { return m_Length; } }

        public void* GetUnsafePtr()
        {
            fixed (int* thisPtr = &m_OffsetPtr)
            {
                return (byte*)thisPtr + m_OffsetPtr;
            }
        }

        public ref T this[int index]
        {
            get
            {
                if ((uint)index >= (uint)m_Length)
                    throw new IndexOutOfRangeException(string.Format("Index {0} is out of range Length {1}", index, m_Length));
                fixed (int* thisPtr = &m_OffsetPtr)
                {
                    return ref UnsafeUtility.ArrayElementAsRef<T>((byte*)thisPtr + m_OffsetPtr, index);
                }
            }
        }
    }

    public unsafe struct BlobString
    {
        internal BlobArray<byte> Data;

        public int Length { get { return Math.Max(0, Data.Length - 1); } }

        public new string ToString()
        {
            return System.Text.Encoding.UTF8.GetString((byte*)Data.GetUnsafePtr(), Length);
        }
    }

    public unsafe struct BlobAssetReference<T> : IDisposable where T : struct
    {
        const int HeaderSize = 32;  // sizeof(BlobAssetHeader)
        IntPtr m_Block;             // what was allocated
        byte* m_Ptr;                // the data, 16-byte aligned, after the header

        public bool IsCreated { get { return m_Ptr != null; } }

        public ref T Value { get { return ref UnsafeUtility.AsRef<T>(m_Ptr); } }

        public void* GetUnsafePtr() { return m_Ptr; }

        public static bool TryRead(string path, int version, out BlobAssetReference<T> result)
        {
            result = default(BlobAssetReference<T>);
            using (var reader = new BinaryReader(File.OpenRead(path)))
            {
                if (reader.ReadInt32() != version) return false;
                byte[] header = reader.ReadBytes(HeaderSize);
                if (header.Length != HeaderSize) throw new EndOfStreamException();
                int length = BitConverter.ToInt32(header, 8);
                byte[] data = reader.ReadBytes(length);
                if (data.Length != length) throw new EndOfStreamException();
                IntPtr block = Marshal.AllocHGlobal(HeaderSize + length + 15);
                long at = ((long)block + HeaderSize + 15) & ~15L;
                Marshal.Copy(header, 0, (IntPtr)(at - HeaderSize), HeaderSize);
                Marshal.Copy(data, 0, (IntPtr)at, length);
                result.m_Block = block;
                result.m_Ptr = (byte*)at;
                return true;
            }
        }

        public void Dispose()
        {
            if (m_Block != IntPtr.Zero) Marshal.FreeHGlobal(m_Block);
            m_Block = IntPtr.Zero;
            m_Ptr = null;
        }
    }
}

namespace Unity.Mathematics
{
    public struct float2 { public float x, y; }
    public struct float3 { public float x, y, z; }
    public struct float4 { public float x, y, z, w; }
    public struct double2 { public double x, y; }
    public struct double3 { public double x, y, z; }
    public struct double4 { public double x, y, z, w; }
    public struct int2 { public int x, y; }
    public struct int3 { public int x, y, z; }
    public struct int4 { public int x, y, z, w; }
    public struct uint2 { public uint x, y; }
    public struct uint3 { public uint x, y, z; }
    public struct uint4 { public uint x, y, z, w; }
    public struct bool2 { [MarshalAs(UnmanagedType.U1)] public bool x; [MarshalAs(UnmanagedType.U1)] public bool y; }
    public struct bool3 { [MarshalAs(UnmanagedType.U1)] public bool x; [MarshalAs(UnmanagedType.U1)] public bool y; [MarshalAs(UnmanagedType.U1)] public bool z; }
    public struct bool4 { [MarshalAs(UnmanagedType.U1)] public bool x; [MarshalAs(UnmanagedType.U1)] public bool y; [MarshalAs(UnmanagedType.U1)] public bool z; [MarshalAs(UnmanagedType.U1)] public bool w; }
}
