// Exact CSV header lines (rocprofv3-facts §3.5), each ending in '\n'.
#pragma once

#include <string_view>

namespace rocprof::formats::csv {

inline constexpr std::string_view kernel_trace_header =
    R"("Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Dispatch_Id","Kernel_Id","Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp","LDS_Block_Size","Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count","Workgroup_Size_X","Workgroup_Size_Y","Workgroup_Size_Z","Grid_Size_X","Grid_Size_Y","Grid_Size_Z")"
    "\n";
// Ours (--kernel-host-callstack): one row per frame of each kernel dispatch's launch stack,
// innermost first (Depth 0).
inline constexpr std::string_view kernel_host_callstacks_header =
    R"("Dispatch_Id","Correlation_Id","Kernel_Name","Depth","Function","File","Line","Module")"
    "\n";
inline constexpr std::string_view api_trace_header =
    R"("Domain","Function","Process_Id","Thread_Id","Correlation_Id","Start_Timestamp","End_Timestamp")"
    "\n";
inline constexpr std::string_view memory_copy_trace_header =
    R"("Kind","Direction","Stream_Id","Source_Agent_Id","Destination_Agent_Id","Correlation_Id","Start_Timestamp","End_Timestamp")"
    "\n";
// Ours (no rocprofv3 equivalent): device memsets.
inline constexpr std::string_view memory_set_trace_header =
    R"("Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Address","Size","Value","Correlation_Id","Start_Timestamp","End_Timestamp")"
    "\n";
inline constexpr std::string_view memory_allocation_trace_header =
    R"("Kind","Operation","Agent_Id","Allocation_Size","Address","Correlation_Id","Start_Timestamp","End_Timestamp")"
    "\n";
inline constexpr std::string_view scratch_memory_trace_header =
    R"("Kind","Operation","Agent_Id","Queue_Id","Thread_Id","Alloc_Flags","Start_Timestamp","End_Timestamp","Allocation_Size")"
    "\n";
inline constexpr std::string_view counter_collection_header =
    R"("Correlation_Id","Dispatch_Id","Agent_Id","Queue_Id","Process_Id","Thread_Id","Grid_Size","Kernel_Id","Kernel_Name","Workgroup_Size","LDS_Block_Size","Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count","Counter_Name","Counter_Value","Start_Timestamp","End_Timestamp")"
    "\n";
// This project's file for device counter samples (--spm; rocprofv3 writes none).
inline constexpr std::string_view device_counter_collection_header =
    R"("Agent_Id","Counter_Id","Counter_Name","Timestamp","Counter_Value")"
    "\n";
inline constexpr std::string_view pc_sampling_host_trap_header =
    R"("Sample_Timestamp","Exec_Mask","Dispatch_Id","Instruction","Instruction_Comment","Correlation_Id")"
    "\n";
// rocprofv3's ten columns, then this project's extension columns (aggregated NVIDIA samples).
inline constexpr std::string_view pc_sampling_stochastic_header =
    R"("Sample_Timestamp","Exec_Mask","Dispatch_Id","Instruction","Instruction_Comment","Correlation_Id","Wave_Issued_Instruction","Instruction_Type","Stall_Reason","Wave_Count","Sample_Count","Not_Issued_Count","Vendor_Stall_Reason","Agent_Id","Kernel_Id","Kernel_Name","Code_Object_Id","Code_Object_Offset")"
    "\n";
inline constexpr std::string_view agent_info_header =
    R"("Node_Id","Logical_Node_Id","Agent_Type","Cpu_Cores_Count","Simd_Count","Cpu_Core_Id_Base","Simd_Id_Base","Max_Waves_Per_Simd","Lds_Size_In_Kb","Gds_Size_In_Kb","Num_Gws","Wave_Front_Size","Num_Xcc","Cu_Count","Array_Count","Num_Shader_Banks","Simd_Arrays_Per_Engine","Cu_Per_Simd_Array","Simd_Per_Cu","Max_Slots_Scratch_Cu","Gfx_Target_Version","Vendor_Id","Device_Id","Location_Id","Domain","Drm_Render_Minor","Num_Sdma_Engines","Num_Sdma_Xgmi_Engines","Num_Sdma_Queues_Per_Engine","Num_Cp_Queues","Max_Engine_Clk_Ccompute","Max_Engine_Clk_Fcompute","Sdma_Fw_Version","Fw_Version","Capability","Cu_Per_Engine","Max_Waves_Per_Cu","Family_Id","Workgroup_Max_Size","Grid_Max_Size","Local_Mem_Size","Hive_Id","Gpu_Id","Workgroup_Max_Dim_X","Workgroup_Max_Dim_Y","Workgroup_Max_Dim_Z","Grid_Max_Dim_X","Grid_Max_Dim_Y","Grid_Max_Dim_Z","Name","Vendor_Name","Product_Name","Model_Name")"
    "\n";
// Ours: per-kernel counter statistics (csv_stats.hpp).
inline constexpr std::string_view counter_stats_header =
    R"("Kernel_Name","Counter_Name","Dispatches","Total","Average","Min","Max")"
    "\n";
inline constexpr std::string_view stats_header =
    R"("Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev")"
    "\n";

}  // namespace rocprof::formats::csv
